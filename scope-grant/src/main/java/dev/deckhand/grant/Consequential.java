package dev.deckhand.grant;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The consequential-action gate (DESIGN.md §3.3), pure.
 *
 * <p>An action is consequential when
 * <ul>
 * <li>it activates an element ({@code click}, {@code click_at} on a known element, {@code select}, or
 *   {@code key} Enter/Return/KP_Enter/space on the focused element) whose role or name contains one of
 *   the {@link #WORDS} as a whole word, case-insensitive ("Send", "Delete…", "Send now"; not "Resend"); or
 * <li>it presses Enter or ctrl+Enter ({@code key}), or types a newline ({@code type}), while the target
 *   is a multi-line / compose text field — classed as the word {@code send}; Enter or ctrl+Enter with
 *   the focused element unknown is treated the same way (fail closed).
 * </ul>
 *
 * <p>The person names consequential actions on the grant with entries of three forms:
 * <ul>
 * <li>a bare word, e.g. {@code send} — covers any action whose matched words are all named;
 * <li>{@code role:name}, e.g. {@code push button:Send} — covers exactly that element (role
 *   case-insensitive, name exact, as selectors match);
 * <li>{@code key:chord}, e.g. {@code key:ctrl+enter} — covers exactly that chord (normalised).
 * </ul>
 */
public final class Consequential {

    /** The gated words, lower case. */
    public static final Set<String> WORDS = Collections.unmodifiableSet(new LinkedHashSet<>(List.of(
            "send", "buy", "pay", "delete", "publish", "confirm", "submit", "install", "allow")));

    private static final List<String> MODIFIER_ORDER = List.of("ctrl", "alt", "shift", "super");

    private Consequential() {
    }

    /** Why an action is consequential: the matched words and a description naming the element or chord. */
    public record Match(Set<String> words, String what) {
        public Match {
            words = Set.copyOf(words);
            Objects.requireNonNull(what, "what");
        }
    }

    /** The gated words occurring as whole words in {@code text} (lower case), in order of {@link #WORDS}. */
    public static Set<String> wordsIn(String text) {
        if (text == null || text.isEmpty()) {
            return Set.of();
        }
        Set<String> tokens = new TreeSet<>();
        for (String t : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!t.isEmpty()) {
                tokens.add(t);
            }
        }
        Set<String> out = new LinkedHashSet<>();
        for (String w : WORDS) {
            if (tokens.contains(w)) {
                out.add(w);
            }
        }
        return out;
    }

    /** Whether the action is consequential, and why. */
    public static Optional<Match> classify(ProposedAction a) {
        Optional<ProposedAction.Element> el = a.element();
        switch (a.kind()) {
            case CLICK:
            case CLICK_AT:
            case SELECT:
                return el.flatMap(Consequential::byElement);
            case KEY: {
                String chord = a.keys().map(Consequential::normalizeChord).orElse("");
                String key = chord.substring(chord.lastIndexOf('+') + 1);
                boolean enter = key.equals("enter");
                if (enter && el.isPresent() && el.get().multiLine()
                        && (chord.equals("enter") || chord.equals("ctrl+enter"))) {
                    return Optional.of(new Match(Set.of("send"),
                            "key " + chord + " in compose field " + describe(el.get())));
                }
                if (enter && el.isEmpty() && (chord.equals("enter") || chord.equals("ctrl+enter"))) {
                    // fail closed: it may be a compose field we cannot see
                    return Optional.of(new Match(Set.of("send"), "key " + chord + " with the focused element unknown"));
                }
                if ((enter || key.equals("space")) && el.isPresent()) {
                    return byElement(el.get()).map(m -> new Match(m.words(), "key " + chord + " on " + m.what()));
                }
                return Optional.empty();
            }
            case TYPE:
                if (a.textHasNewline() && el.isPresent() && el.get().multiLine()) {
                    return Optional.of(new Match(Set.of("send"),
                            "newline typed into compose field " + describe(el.get())));
                }
                return Optional.empty();
            default:
                return Optional.empty();
        }
    }

    /** Whether the person's named entries cover this consequential action. */
    public static boolean named(Set<String> namedEntries, ProposedAction a, Match m) {
        if (a.element().isPresent()) {
            ProposedAction.Element e = a.element().get();
            if (namedEntries.contains(e.role().toLowerCase(Locale.ROOT).trim() + ":" + e.name())) {
                return true;
            }
        }
        if (a.kind() == ActionKind.KEY && a.keys().isPresent()
                && namedEntries.contains("key:" + normalizeChord(a.keys().get()))) {
            return true;
        }
        return !m.words().isEmpty() && namedEntries.containsAll(m.words());
    }

    /**
     * Normalises a chord: lower case, {@code control → ctrl}, {@code return|kp_enter → enter},
     * modifiers ordered ctrl, alt, shift, super. {@code "Ctrl+Return"} → {@code "ctrl+enter"}.
     */
    public static String normalizeChord(String chord) {
        List<String> mods = new ArrayList<>();
        String key = "";
        for (String raw : chord.split("\\+")) {
            String p = raw.trim().toLowerCase(Locale.ROOT);
            if (p.isEmpty()) {
                continue;
            }
            switch (p) {
                case "control": p = "ctrl"; break;
                case "return": case "kp_enter": p = "enter"; break;
                case "meta": case "win": case "logo": p = "super"; break;
                default: break;
            }
            if (MODIFIER_ORDER.contains(p)) {
                if (!mods.contains(p)) {
                    mods.add(p);
                }
            } else {
                key = p;
            }
        }
        mods.sort((x, y) -> Integer.compare(MODIFIER_ORDER.indexOf(x), MODIFIER_ORDER.indexOf(y)));
        StringBuilder sb = new StringBuilder();
        for (String m : mods) {
            sb.append(m).append('+');
        }
        return sb.append(key).toString();
    }

    /**
     * Normalises the named entries of a grant: bare words lower case; {@code role:name} with the role
     * lower case and the name exact; {@code key:chord} with the chord normalised.
     *
     * @throws IllegalArgumentException naming {@code consequential} for a null or blank entry
     */
    static Set<String> normalize(Set<String> entries) {
        Objects.requireNonNull(entries, "consequential");
        Set<String> out = new TreeSet<>();
        for (String e : entries) {
            if (e == null || e.isBlank()) {
                throw new IllegalArgumentException("consequential entries must not be blank");
            }
            int colon = e.indexOf(':');
            if (colon < 0) {
                String w = e.trim().toLowerCase(Locale.ROOT);
                if (!w.matches("[\\p{L}\\p{N}_-]+")) {
                    throw new IllegalArgumentException("consequential entry '" + e
                            + "' must be a single word, 'role:name' or 'key:chord'");
                }
                out.add(w);
            } else {
                String role = e.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String rest = e.substring(colon + 1);
                if (role.isEmpty() || rest.isBlank()) {
                    throw new IllegalArgumentException("consequential entry '" + e
                            + "' must be a single word, 'role:name' or 'key:chord'");
                }
                out.add(role.equals("key") ? "key:" + normalizeChord(rest) : role + ":" + rest);
            }
        }
        return Collections.unmodifiableSet(out);
    }

    private static Optional<Match> byElement(ProposedAction.Element e) {
        Set<String> w = new LinkedHashSet<>(wordsIn(e.role()));
        w.addAll(wordsIn(e.name()));
        return w.isEmpty() ? Optional.empty() : Optional.of(new Match(w, describe(e)));
    }

    static String describe(ProposedAction.Element e) {
        return e.role() + " '" + e.name() + "'";
    }
}
