package dev.deckhand.grant;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one key chord grammar and its normal form, shared by the action schema, the policy, the
 * consequential gate and the X11 driver (which only maps {@link #key()} to a keysym).
 *
 * <p>Grammar (exact, case-sensitive): zero or more distinct modifiers {@code ctrl alt shift super meta
 * hyper} joined with {@code +}, then one key: a letter, a digit, {@code F1}..{@code F12},
 * {@code Enter} (aliases {@code Return}, {@code return}, {@code KP_Enter}), {@code Tab Escape BackSpace
 * Delete Insert Home End Page_Up Page_Down Up Down Left Right space grave Menu}, or a system key
 * {@code Print SysRq XF86…}. Anything else is invalid input.
 *
 * <p>Normal form: modifiers in the order above; an upper-case letter becomes its lower-case key plus
 * {@code shift} (the event X actually sends for it); every Enter alias becomes {@code Enter}. So
 * {@code alt+S}, {@code shift+alt+s} and {@code alt+shift+s} are one chord, {@code alt+shift+s}.
 *
 * <p>{@link #systemReason()} is the rule of docs/design.md#absolute-refusals: chords the desktop, window manager or X
 * server may take ({@code SYSTEM_CHORD}).
 */
public record Chord(Set<Modifier> modifiers, String key) {

    /** Modifiers in their normal order. */
    public enum Modifier {
        CTRL,
        ALT,
        SHIFT,
        SUPER,
        META,
        HYPER;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Longest chord text read at all. */
    public static final int MAX_LENGTH = 64;

    /** Named keys the grammar admits besides letters, digits, F-keys and XF86 keys, in normal form. */
    public static final List<String> NAMED_KEYS = List.of(
            "Enter",
            "Tab",
            "Escape",
            "BackSpace",
            "Delete",
            "Insert",
            "Home",
            "End",
            "Page_Up",
            "Page_Down",
            "Up",
            "Down",
            "Left",
            "Right",
            "space",
            "grave",
            "Menu",
            "Print",
            "SysRq");

    private static final Map<String, String> ALIASES =
            Map.of("Return", "Enter", "return", "Enter", "KP_Enter", "Enter");

    private static final String KEY_NAME = "[a-zA-Z0-9]|F[1-9]|F1[0-2]|Enter|Return|return|KP_Enter|Tab|Escape"
            + "|BackSpace|Delete|Insert|Home|End|Page_Up|Page_Down|Up|Down|Left|Right|space|grave|Menu|Print|SysRq"
            + "|XF86[A-Za-z0-9_]{1,40}";

    /** The grammar as an ECMA/Java regex (it appears in the action schema). */
    public static final String PATTERN = "^((ctrl|alt|shift|super|meta|hyper)\\+)*(" + KEY_NAME + ")$";

    /** {@link #PATTERN}, compiled. */
    public static final Pattern PATTERN_COMPILED = Pattern.compile(PATTERN);

    private static final Pattern LETTER = Pattern.compile("[a-z]");
    private static final Pattern FUNCTION = Pattern.compile("F[1-9]|F1[0-2]");
    private static final Pattern XF86 = Pattern.compile("XF86[A-Za-z0-9_]{1,40}");

    public Chord {
        Objects.requireNonNull(modifiers, "modifiers");
        Objects.requireNonNull(key, "key");
        EnumSet<Modifier> m = modifiers.isEmpty() ? EnumSet.noneOf(Modifier.class) : EnumSet.copyOf(modifiers);
        modifiers = Collections.unmodifiableSet(m);
        if (!normalKey(key)) throw new IllegalArgumentException("key '" + key + "' is not a normalised key name");
    }

    /**
     * Parses and normalises one chord.
     *
     * @throws IllegalArgumentException naming {@code keys} and the action {@code key}
     */
    public static Chord parse(String keys) {
        if (keys == null || keys.isEmpty()) throw new IllegalArgumentException("keys is required for key");
        if (keys.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("keys must be at most " + MAX_LENGTH + " characters for key");
        }
        if (!PATTERN_COMPILED.matcher(keys).matches()) {
            throw new IllegalArgumentException(
                    "keys must be modifiers (ctrl, alt, shift, super, meta, hyper) joined with"
                            + " '+' and one key name (a letter, a digit, F1-F12, Enter, Tab, Escape, BackSpace, Delete, Insert,"
                            + " Home, End, Page_Up, Page_Down, Up, Down, Left, Right, space, grave, Menu) for key");
        }
        String[] parts = keys.split("\\+");
        EnumSet<Modifier> mods = EnumSet.noneOf(Modifier.class);
        for (int i = 0; i < parts.length - 1; i++) {
            if (!mods.add(Modifier.valueOf(parts[i].toUpperCase(Locale.ROOT)))) {
                throw new IllegalArgumentException("keys repeats the modifier " + parts[i] + " for key");
            }
        }
        String key = parts[parts.length - 1];
        key = ALIASES.getOrDefault(key, key);
        if (key.length() == 1 && Character.isUpperCase(key.charAt(0))) {
            // the event X sends for an upper-case letter is shift + the letter's key
            key = key.toLowerCase(Locale.ROOT);
            mods.add(Modifier.SHIFT);
        }
        return new Chord(mods, key);
    }

    /**
     * Reads a chord the person wrote (a grant's {@code key:} entry): like {@link #parse} but
     * modifiers and named keys in any case, and a single letter always its lower-case key.
     */
    public static Chord parseLenient(String text) {
        Objects.requireNonNull(text, "chord");
        String[] parts = text.trim().split("\\s*\\+\\s*");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            if (i < parts.length - 1) {
                String m = p.toLowerCase(Locale.ROOT);
                out.add(m.equals("control") ? "ctrl" : m);
                continue;
            }
            out.add(p.length() == 1 ? p.toLowerCase(Locale.ROOT) : canonicalName(p));
        }
        return parse(String.join("+", out));
    }

    /** Modifier names in toolkit key-binding strings (GTK {@code <Control>}, Qt {@code Ctrl+}), lower case. */
    private static final Map<String, Modifier> BINDING_MODIFIERS = Map.ofEntries(
            Map.entry("control", Modifier.CTRL),
            Map.entry("ctrl", Modifier.CTRL),
            Map.entry("ctl", Modifier.CTRL),
            Map.entry("primary", Modifier.CTRL),
            Map.entry("shift", Modifier.SHIFT),
            Map.entry("alt", Modifier.ALT),
            Map.entry("mod1", Modifier.ALT),
            Map.entry("super", Modifier.SUPER),
            Map.entry("mod4", Modifier.SUPER),
            Map.entry("meta", Modifier.META),
            Map.entry("hyper", Modifier.HYPER));

    /** Key names in toolkit key-binding strings (X keysyms, Qt's names), lower case, to the grammar's key. */
    private static final Map<String, String> BINDING_KEYS = Map.ofEntries(
            Map.entry("return", "Enter"),
            Map.entry("enter", "Enter"),
            Map.entry("kp_enter", "Enter"),
            Map.entry("iso_enter", "Enter"),
            Map.entry("delete", "Delete"),
            Map.entry("del", "Delete"),
            Map.entry("kp_delete", "Delete"),
            Map.entry("backspace", "BackSpace"),
            Map.entry("insert", "Insert"),
            Map.entry("ins", "Insert"),
            Map.entry("kp_insert", "Insert"),
            Map.entry("home", "Home"),
            Map.entry("end", "End"),
            Map.entry("page_up", "Page_Up"),
            Map.entry("pgup", "Page_Up"),
            Map.entry("prior", "Page_Up"),
            Map.entry("page_down", "Page_Down"),
            Map.entry("pgdown", "Page_Down"),
            Map.entry("next", "Page_Down"),
            Map.entry("up", "Up"),
            Map.entry("down", "Down"),
            Map.entry("left", "Left"),
            Map.entry("right", "Right"),
            Map.entry("space", "space"),
            Map.entry("tab", "Tab"),
            Map.entry("iso_left_tab", "Tab"),
            Map.entry("backtab", "Tab"),
            Map.entry("escape", "Escape"),
            Map.entry("esc", "Escape"),
            Map.entry("grave", "grave"),
            Map.entry("menu", "Menu"),
            Map.entry("print", "Print"),
            Map.entry("sysrq", "SysRq"));

    private static final Pattern GTK_BINDING = Pattern.compile("((?:<[A-Za-z0-9_]+>)*)\\s*([^<>\\s]+)");

    /**
     * The chord of a toolkit's key-binding string, as AT-SPI's {@code Action.GetKeyBinding} gives it for a
     * menu item, or empty when it names no chord the grammar can express (a key the model cannot send then
     * never matches). Read: GTK's {@code <Control>s}, {@code <Primary><Shift>Return}, {@code <Mod1>F4}; GTK 3's
     * menu-item triple {@code mnemonic;<Alt>f:s;accelerator} (only its accelerator: the mnemonic works only in
     * the open menu and the path starts with an {@code alt} chord, judged as a mnemonic); Qt's and plain
     * {@code Ctrl+Shift+S}, {@code Ctrl+Del}. Letters are their key without shift: an accelerator names the key.
     */
    public static Optional<Chord> fromBinding(String binding) {
        if (binding == null) return Optional.empty();
        String b = binding.strip();
        if (b.isEmpty() || b.length() > 4 * MAX_LENGTH) return Optional.empty();
        String[] parts = b.split(";", -1);
        if (parts.length == 3) b = parts[2].strip();
        else if (parts.length != 1) return Optional.empty();
        if (b.isEmpty() || b.contains(":") || b.contains(",")) return Optional.empty(); // a sequence is no one chord
        EnumSet<Modifier> mods = EnumSet.noneOf(Modifier.class);
        String key;
        java.util.regex.Matcher g = GTK_BINDING.matcher(b);
        if (b.startsWith("<")) {
            if (!g.matches()) return Optional.empty();
            for (String m : g.group(1).replace("<", "").split(">")) {
                if (m.isEmpty()) continue;
                Modifier mod = BINDING_MODIFIERS.get(m.toLowerCase(Locale.ROOT));
                if (mod == null) return Optional.empty();
                mods.add(mod);
            }
            key = g.group(2);
        } else {
            String[] ps = b.split("\\s*\\+\\s*", -1);
            for (int i = 0; i < ps.length - 1; i++) {
                Modifier mod = BINDING_MODIFIERS.get(ps[i].toLowerCase(Locale.ROOT));
                if (mod == null) return Optional.empty();
                mods.add(mod);
            }
            key = ps[ps.length - 1];
        }
        Optional<String> k = bindingKey(key);
        if (k.isEmpty()) return Optional.empty();
        if (k.get().equals("Tab") && (key.equalsIgnoreCase("ISO_Left_Tab") || key.equalsIgnoreCase("Backtab"))) {
            mods.add(Modifier.SHIFT);
        }
        return Optional.of(new Chord(mods, k.get()));
    }

    private static Optional<String> bindingKey(String key) {
        if (key.length() == 1) {
            char c = key.charAt(0);
            if (c < 128 && Character.isLetterOrDigit(c)) return Optional.of(key.toLowerCase(Locale.ROOT));
            if (c == '`') return Optional.of("grave");
            if (c == ' ') return Optional.of("space");
            return Optional.empty();
        }
        if (key.matches("(?i)f([1-9]|1[0-2])")) return Optional.of(key.toUpperCase(Locale.ROOT));
        if (key.regionMatches(true, 0, "XF86", 0, 4)
                && XF86.matcher("XF86" + key.substring(4)).matches()) {
            return Optional.of("XF86" + key.substring(4));
        }
        return Optional.ofNullable(BINDING_KEYS.get(key.toLowerCase(Locale.ROOT)));
    }

    /**
     * A chord that submits what the focused element holds: Enter ({@code Return}, {@code KP_Enter}) with any
     * modifiers, and in a terminal every key but those that only edit the line ({@link #LINE_EDITING}, and a letter or
     * digit) with at most {@code shift}. A terminal sends {@code ctrl+m} and {@code ctrl+j} as carriage return and line
     * feed, Escape is its Meta prefix (bash's readline runs {@code Escape 1 #}, insert-comment with an argument, as a
     * submitted line — round 2 of the review), function keys arrive as escape sequences, and what runs behind it
     * decides what any of these do: no list of the ones that submit can be complete, so in a terminal the default
     * refuses and the short list is of the keys that do not.
     *
     * @param terminal the focused element is a terminal, or may be one (unknown)
     */
    public boolean submits(boolean terminal) {
        if (key.equals("Enter")) return true;
        if (!terminal) return false;
        if (modifiers.stream().anyMatch(m -> m != Modifier.SHIFT)) return true;
        return !(letterOrDigit() || LINE_EDITING.contains(key));
    }

    /**
     * The keys that, in a terminal, only move in or edit the line being typed: no program behind it is told to run
     * anything by them. Not {@code Insert} ({@code shift+Insert} pastes in xterm) nor {@code Escape}.
     */
    static final Set<String> LINE_EDITING = Set.of(
            "Tab",
            "BackSpace",
            "Delete",
            "Home",
            "End",
            "Left",
            "Right",
            "Up",
            "Down",
            "Page_Up",
            "Page_Down",
            "space",
            "grave");

    private static String canonicalName(String name) {
        if (name.regionMatches(true, 0, "XF86", 0, 4)) return "XF86" + name.substring(4);
        if (name.matches("(?i)f([1-9]|1[0-2])")) return name.toUpperCase(Locale.ROOT);
        for (String alias : ALIASES.keySet()) if (alias.equalsIgnoreCase(name)) return alias;
        for (String n : NAMED_KEYS) if (n.equalsIgnoreCase(name)) return n;
        return name;
    }

    private static boolean normalKey(String key) {
        if (key.length() == 1)
            return LETTER.matcher(key).matches() || Character.isDigit(key.charAt(0)) && key.charAt(0) < 128;
        return FUNCTION.matcher(key).matches()
                || NAMED_KEYS.contains(key)
                || XF86.matcher(key).matches();
    }

    public boolean has(Modifier m) {
        return modifiers.contains(m);
    }

    /** The key is a letter (a-z) or a digit: what a mnemonic can name. */
    public boolean letterOrDigit() {
        return key.length() == 1;
    }

    /** {@code F1}..{@code F12}. */
    public boolean functionKey() {
        return FUNCTION.matcher(key).matches();
    }

    /**
     * Why the desktop, window manager or X server may take this chord, or empty when it goes to the
     * app: any {@code super}/{@code meta}/{@code hyper} chord; any {@code ctrl+alt+…};
     * {@code alt+Tab/Escape/space/F1–F12/grave}; {@code ctrl+F1–F12}; {@code ctrl+Escape};
     * {@code Print}, {@code SysRq} and {@code XF86…} keys with any modifiers.
     */
    public Optional<String> systemReason() {
        if (has(Modifier.SUPER) || has(Modifier.META) || has(Modifier.HYPER)) {
            return Optional.of("super, meta and hyper chords belong to the desktop");
        }
        if (has(Modifier.CTRL) && has(Modifier.ALT)) {
            return Optional.of("ctrl+alt chords belong to the desktop and the X server (workspaces, terminals, VTs)");
        }
        if (key.equals("Print") || key.equals("SysRq") || key.startsWith("XF86")) {
            return Optional.of(key + " belongs to the desktop");
        }
        if (has(Modifier.ALT)
                && (key.equals("Tab")
                        || key.equals("Escape")
                        || key.equals("space")
                        || key.equals("grave")
                        || functionKey())) {
            return Optional.of("alt+" + key + " belongs to the window manager");
        }
        if (has(Modifier.CTRL) && (functionKey() || key.equals("Escape"))) {
            return Optional.of("ctrl+" + key + " belongs to the desktop");
        }
        return Optional.empty();
    }

    /**
     * The chord writes or deletes text in a focused field: a letter, digit, space or grave with at most
     * shift, or BackSpace, Delete or Insert with at most shift. (Paste chords are judged as {@link #paste()}.)
     */
    public boolean editsText() {
        boolean shiftOnly = modifiers.isEmpty() || modifiers.equals(EnumSet.of(Modifier.SHIFT));
        if (!shiftOnly) return false;
        return letterOrDigit()
                || key.equals("space")
                || key.equals("grave")
                || key.equals("BackSpace")
                || key.equals("Delete")
                || key.equals("Insert") && modifiers.isEmpty();
    }

    /**
     * A paste chord: {@code ctrl+v}, {@code ctrl+shift+v}, {@code shift+Insert} (with any other
     * modifiers; the consequential category {@code paste}).
     */
    public boolean paste() {
        return (key.equals("v") && has(Modifier.CTRL)) || (key.equals("Insert") && has(Modifier.SHIFT));
    }

    /** The normal form, e.g. {@code ctrl+shift+s}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Modifier m : modifiers) sb.append(m.wire()).append('+');
        return sb.append(key).toString();
    }

    /** Every chord text the grammar admits with at most {@code maxModifiers} modifiers (XF86 keys: a sample). */
    public static List<String> admitted(int maxModifiers) {
        List<String> keys = new ArrayList<>();
        for (char c = 'a'; c <= 'z'; c++) {
            keys.add(String.valueOf(c));
            keys.add(String.valueOf(Character.toUpperCase(c)));
        }
        for (char c = '0'; c <= '9'; c++) keys.add(String.valueOf(c));
        for (int f = 1; f <= 12; f++) keys.add("F" + f);
        keys.addAll(NAMED_KEYS);
        keys.addAll(ALIASES.keySet());
        keys.addAll(List.of("XF86AudioMute", "XF86LogOff", "XF86ScreenSaver", "XF86Switch_VT_1", "XF86Paste"));
        List<List<String>> modSets = new ArrayList<>();
        modSets.add(List.of());
        Modifier[] all = Modifier.values();
        for (int mask = 1; mask < (1 << all.length); mask++) {
            if (Integer.bitCount(mask) > maxModifiers) continue;
            List<String> set = new ArrayList<>();
            for (int i = 0; i < all.length; i++) if ((mask & (1 << i)) != 0) set.add(all[i].wire());
            modSets.add(set);
        }
        Map<String, Boolean> out = new LinkedHashMap<>();
        for (List<String> mods : modSets) {
            for (String k : keys) {
                String prefix = mods.isEmpty() ? "" : String.join("+", mods) + "+";
                out.put(prefix + k, true);
            }
        }
        return new ArrayList<>(out.keySet());
    }
}
