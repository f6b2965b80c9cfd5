package dev.deckhand.grant;

import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The consequential-action gate (docs/design.md#consequential-actions), pure, judged by effect on the normalised form of
 * what the action does ({@link Labels}, {@link Chord}, {@link ConsequentialWords}):
 * <ul>
 * <li>{@code click}, and {@code click_at} on the element under the point: the element's label and every other
 *   text it shows ({@link ProposedAction.Element#shown}); a {@code click_at} on a point the tree identifies no
 *   element at, and a press of an element that says nothing at all — a control ({@link
 *   ProposedAction.Element#ACTION_ROLES}) or, for {@code click} and {@code click_at}, any element but a text
 *   field, whose name and shown texts are empty — is consequential (category {@code unidentified}).
 * <li>{@code select}: the element's label and the option's.
 * <li>In a dialog whose text carries a gated word, every element but a text field counts as carrying
 *   that word (so OK, Yes, a check box there are gated).
 * <li>A default that refuses, {@link ConsequentialWords#UNLISTED}: in a dialog that asks one thing ({@link
 *   ProposedAction.WindowContext#asks}), a press of a push button whose label carries no list word and is not {@link
 *   ConsequentialWords#everyday}; in one that asks a question ({@link ProposedAction.WindowContext#question}), a press
 *   of any answer but a {@link ConsequentialWords#dismissing} one that does not repeat a word of the question.
 * <li>{@code key}: paste chords ({@code paste}); {@code alt+<letter or digit>} (a mnemonic may press any
 *   button; named only as {@code key:alt+s}); a chord that submits ({@link Chord#submits}: Enter with any
 *   modifiers, and {@code ctrl+m}/{@code ctrl+j} in a terminal or an unknown focus) when the focused element
 *   is unknown, a terminal or a compose field ({@code send}), or is gated, or the window's default button is
 *   gated, or the dialog is; space (any modifiers) on a gated or unknown focused element; a menu item's
 *   accelerator ({@link Accelerators}) as a click on that item (named also as the item's {@code role:name});
 *   a {@code ctrl} chord on a window whose menu items show no key bindings (named only as {@code key:…}).
 * <li>{@code type} into a focused element that is not a text field: its characters press it, so as space; {@code type}
 *   of a character outside printable ASCII into a terminal or an unknown focus ({@code send}): a terminal may read it
 *   as a key that runs the line.
 * <li>{@code key} and {@code type} into a terminal or an unknown focus while a program other than a shell at its
 *   prompt reads the terminal's keys ({@link ProposedAction.WindowContext#programReadsKeys}: a full-screen program,
 *   a job in the foreground): {@code send}, as any letter may be a command there.
 * </ul>
 *
 * <p>The person names consequential actions on the grant with entries of three forms: a category
 * ({@code send}: every word of it, {@link ConsequentialWords}); {@code role:name} (exactly that element);
 * {@code key:chord} (exactly that chord, normalised).
 */
public final class Consequential {

    /** The category of a {@code click_at} on a point the tree does not identify. */
    public static final String UNIDENTIFIED = "unidentified";

    private static final Chord ENTER = Chord.parse("Return");

    private static final Set<String> ROWS = ProposedAction.Element.ROW_ROLES;

    private static final Set<String> VALUE_ROLES = ProposedAction.Element.VALUE_ROLES;

    /**
     * The lists and tables that hold rows: focused before any row is (GTK's tree view as a dialog opens), a key that
     * moves chooses a row as on a row (round 16: yad's list under "Selecting a row deletes that file", the first
     * {@code key Down}).
     */
    private static final Set<String> LISTS = Set.of("table", "tree table", "tree", "list", "list box");

    /**
     * Controls that hold one choice of several: a key or a letter on one moves the choice (round 17: K2, a radio
     * group's arrow key chose "Delete all my files"; K3, a page's list box chose "Delete account" by keys and typing).
     */
    private static final Set<String> CHOICE_ROLES = Set.of("combo box", "list box", "radio button", "radio menu item");

    private static final Set<String> MOVES =
            Set.of("Up", "Down", "Left", "Right", "Home", "End", "Page_Up", "Page_Down", "Prior", "Next");

    private static final Set<String> VERTICAL = Set.of("Up", "Down", "Page_Up", "Page_Down", "Prior", "Next");

    /**
     * Whether a key on an item may bring the focus or the choice to another item of its group: every key but Tab
     * (with or without shift: it leaves the group), Escape, and a plain Enter, Return or space, which press the
     * focused item itself.
     */
    private static boolean mayReach(Chord chord) {
        String key = chord.key();
        boolean plain = chord.modifiers().isEmpty();
        if (key.equals("Escape") && plain) return false;
        if ((key.equals("Tab") || key.equals("ISO_Left_Tab"))
                && (plain || chord.modifiers().equals(Set.of(Chord.Modifier.SHIFT)))) return false;
        return !(plain
                && (key.equals("Return") || key.equals("Enter") || key.equals("KP_Enter") || key.equals("space")));
    }

    private Consequential() {}

    /**
     * Why an action is consequential.
     *
     * @param categories the categories that cover it when all are named; empty when only an exact entry
     *     ({@code key:…}, {@code role:name}) or an approval can
     * @param what a description naming the element or chord
     */
    public record Match(Set<String> categories, String what) {
        public Match {
            categories = Collections.unmodifiableSet(new TreeSet<>(categories));
            Objects.requireNonNull(what, "what");
        }
    }

    /** Whether the action is consequential under the word list, and why. */
    public static Optional<Match> classify(ProposedAction a, ConsequentialWords words) {
        return merge(merge(menuChooses(a), opensContextMenu(a)), classifyOnFocus(a, words));
    }

    /**
     * The context menu key ({@code Menu}, {@code shift+F10}) opens a menu whose items a letter then chooses by its
     * mnemonic (round 18's N1, N2 and round 19's T2g: Paste, in mousepad, FeatherPad and a Chromium page, whose menu
     * holds no keyboard grab to measure): {@link #UNIDENTIFIED}, as what its items do the tree does not show.
     */
    private static Optional<Match> opensContextMenu(ProposedAction a) {
        if (a.kind() != ActionKind.KEY) return Optional.empty();
        Chord chord = a.chord().orElseThrow();
        boolean menu = chord.key().equals("Menu") || chord.key().equals("F10") && chord.has(Chord.Modifier.SHIFT);
        if (!menu) return Optional.empty();
        return Optional.of(new Match(
                Set.of(UNIDENTIFIED), "key " + chord + " opens the context menu, whose items a letter then chooses"));
    }

    /**
     * A key or typing while a menu of the granted app holds the keyboard (round 18, N1 and N2: {@code key Menu} opened
     * mousepad's and FeatherPad's context menu and {@code type "p"} chose its Paste, the text view still reported
     * focused): a letter chooses an item by its mnemonic, Enter or space the highlighted one, and which items the open
     * menu holds the tree of the granted window does not show, so it is {@link #UNIDENTIFIED}. A key that only moves
     * the highlight and Escape (which closes the menu) choose nothing; Tab commits a list's highlighted option (round
     * 19's T2e).
     */
    private static Optional<Match> menuChooses(ProposedAction a) {
        if (!a.context().menuHoldsKeys()) return Optional.empty();
        if (a.kind() == ActionKind.TYPE) {
            return Optional.of(new Match(
                    Set.of(UNIDENTIFIED),
                    "typing while the app's own menu holds the keyboard, where a letter chooses one of its items"));
        }
        if (a.kind() != ActionKind.KEY) return Optional.empty();
        Chord chord = a.chord().orElseThrow();
        String key = chord.key();
        if (MOVES.contains(key) || key.equals("Escape")) return Optional.empty();
        return Optional.of(new Match(
                Set.of(UNIDENTIFIED),
                "key " + chord + " while the app's own menu holds the keyboard, where it may choose one of its items"));
    }

    private static Optional<Match> classifyOnFocus(ProposedAction a, ConsequentialWords words) {
        Optional<ProposedAction.Element> el = a.element();
        Set<String> dialog =
                a.context().dialog() ? words.categoriesIn(a.context().text()) : Set.of();
        switch (a.kind()) {
            case CLICK:
            case CLICK_AT: {
                if (el.isEmpty()) {
                    return Optional.of(new Match(
                            Set.of(UNIDENTIFIED),
                            a.kind().wire() + " on a point where the accessibility tree shows no element"));
                }
                Optional<Match> clicked = match(
                        pressed(el.get(), words, dialog, true, a.context()),
                        a.kind().wire() + " " + describe(el.get()),
                        dialog);
                // what a page's OK would confirm, where its choice cannot be read: a press of a button there is
                // unidentified
                if (a.context().unreadChoice()
                        && ProposedAction.Element.ACTION_ROLES.contains(el.get().role())) {
                    clicked = merge(
                            clicked,
                            Optional.of(new Match(
                                    Set.of(UNIDENTIFIED),
                                    a.kind().wire() + " " + describe(el.get())
                                            + " where the page shows a choice Deckhand cannot read")));
                }
                // a toolkit clicks a single-line entry or a list's row by its one action, activate, which is Enter in
                // it: the dialog's default button (round 8: a click on yad's entry confirmed "Delete all 3 files
                // forever?"; round 9: a click on a row of yad's and zenity's lists pressed Send)
                boolean entry = singleLineEntry(el.get());
                if (!entry
                        && !ROWS.contains(
                                el.get().role().toLowerCase(Locale.ROOT).trim())) return clicked;
                return merge(
                        clicked,
                        keyOnFocus(ENTER, el, a.context(), words, dialog)
                                .map(m -> new Match(
                                        m.categories(),
                                        a.kind().wire() + " on " + (entry ? "single-line entry " : "row ")
                                                + describe(el.get()) + " activates it, as Enter does: " + m.what())));
            }
            case SELECT: {
                Set<String> c = new TreeSet<>();
                el.ifPresent(e -> c.addAll(elementCategories(e, words, dialog)));
                a.option().ifPresent(o -> c.addAll(words.categoriesIn(o)));
                return match(
                        c,
                        "select an option (" + a.option().orElse("").length() + " characters) in "
                                + el.map(Consequential::describe).orElse("an element"),
                        dialog);
            }
            case SET_TEXT: {
                // a value control set to a number (a page's range or number input) acts as the control does: judged
                // by its words as a press of it (round 15, R1: set_text of 100 on a slider "Confirm purchase"); text
                // written into a field or a combo box's entry is data, as typing is
                if (el.isEmpty()
                        || !VALUE_ROLES.contains(
                                el.get().role().toLowerCase(Locale.ROOT).trim())) return Optional.empty();
                return match(
                        pressed(el.get(), words, dialog, false, a.context()),
                        "set_text on " + describe(el.get()) + " sets its value, as pressing it would",
                        dialog);
            }
            case KEY: {
                Optional<Match> program =
                        programReadsKeys(a, el, "key " + a.chord().orElseThrow());
                if (program.isPresent()) return program;
                return key(a.chord().orElseThrow(), el, a.context(), words, dialog);
            }
            case TYPE: {
                Optional<Match> program = programReadsKeys(a, el, "typing");
                if (program.isPresent()) return program;
                // a terminal (or a focus that cannot be read, which may be one) may read a character outside printable
                // ASCII as a key: under the C locale xterm's 8-bit Meta makes ± Meta-1 and £ Meta-#, which ran the line
                if (a.beyondAscii() && mayBeTerminal(el)) {
                    return Optional.of(new Match(
                            Set.of("send"),
                            "typing characters outside printable ASCII "
                                    + el.map(e -> "in " + describe(e)).orElse("with the focused element unknown")
                                    + ", where a terminal may read one as a key that runs the line"));
                }
                // with the focus unknown the letters may land on any control of the window, a select or a spin
                // button among them (round 17, G3: GTK 3 reports no focused element while its window is not active)
                if (el.isEmpty()) {
                    return match(
                            new TreeSet<>(dialog),
                            "typing with the focused element unknown, which may choose or set what a control holds",
                            dialog);
                }
                // a focused select chooses the option whose name starts with the typed letters, digits typed into a
                // spin button set its value as set_text of them does, and a letter on an item of a group chooses the
                // item it starts (type-ahead)
                Optional<Match> reached = reached(el.get(), "typing", words);
                if (holdsValueOrChoice(el.get())
                        || VALUE_ROLES.contains(
                                el.get().role().toLowerCase(Locale.ROOT).trim())) {
                    return merge(valueOrChoiceMoved(el.get(), "typing", words, dialog, a.context()), reached);
                }
                return merge(
                        match(
                                pressed(el.get(), words, dialog, false, a.context()),
                                "typing into " + describe(el.get()) + " presses it",
                                dialog),
                        reached);
            }
            default:
                return Optional.empty();
        }
    }

    private static Optional<Match> key(
            Chord chord,
            Optional<ProposedAction.Element> el,
            ProposedAction.WindowContext ctx,
            ConsequentialWords words,
            Set<String> dialog) {
        Optional<Match> out = keyOnFocus(chord, el, ctx, words, dialog);
        // an accelerator runs its menu item wherever the focus is: judged as a click on the item
        List<ProposedAction.Element> items = ctx.accelerators().itemsOf(chord);
        for (ProposedAction.Element item : items) {
            out = merge(
                    out,
                    match(
                            pressed(item, words, dialog, false, ProposedAction.WindowContext.NONE),
                            "key " + chord + " is the accelerator of " + describe(item),
                            dialog));
        }
        // ctrl+shift and a letter in a text field (in a terminal every ctrl chord is send already): the input methods
        // of GTK, IBus and VTE start Unicode entry on ctrl+shift+u (emoji on ctrl+shift+e), whose hex digits and space
        // then write a character no typed text carried (round 20's D4: " /tmp/", ctrl+shift+u, "2e", space, "canary"
        // wrote a hidden path past the rule on typed text). One that is none of the app's accelerators is judged
        // unidentified, whichever the letter.
        if (items.isEmpty()
                && el.isPresent()
                && el.get().editable()
                && !terminal(el.get())
                && chord.has(Chord.Modifier.CTRL)
                && chord.has(Chord.Modifier.SHIFT)
                && chord.modifiers().size() == 2
                && chord.key().length() == 1
                && Character.isLetter(chord.key().charAt(0))) {
            out = merge(
                    out,
                    Optional.of(new Match(
                            Set.of(UNIDENTIFIED),
                            "key " + chord + " on " + describe(el.get()) + ": in a text field an input method may"
                                    + " start Unicode or emoji entry on it, writing characters no typed text carried,"
                                    + " and it is none of the app's menu accelerators")));
        }
        if (items.isEmpty()
                && ctx.accelerators().state() == Accelerators.State.UNREADABLE
                && chord.has(Chord.Modifier.CTRL)
                && !chord.paste()) {
            out = merge(
                    out,
                    Optional.of(new Match(
                            Set.of(),
                            "key " + chord + ": the app's menu items show no key"
                                    + " bindings, so it may be the accelerator of any of them")));
        }
        return out;
    }

    /** Both reasons; only exact entries cover it when either can only be covered so. */
    private static Optional<Match> merge(Optional<Match> a, Optional<Match> b) {
        if (a.isEmpty()) return b;
        if (b.isEmpty()) return a;
        Set<String> c = new TreeSet<>();
        if (!a.get().categories().isEmpty() && !b.get().categories().isEmpty()) {
            c.addAll(a.get().categories());
            c.addAll(b.get().categories());
        }
        return Optional.of(new Match(c, a.get().what() + "; " + b.get().what()));
    }

    /**
     * {@link #keyOnFocusAlone}, and on a focused control that holds a value or a choice, every key but those that move
     * (judged there), Tab and Escape is judged as moving it: space, Enter and the function keys open a list's popup,
     * where keys the popup takes then choose (round 19's T2e: space opened a page's {@code <select>}, Down and Tab
     * chose "Delete account").
     */
    private static Optional<Match> keyOnFocus(
            Chord chord,
            Optional<ProposedAction.Element> el,
            ProposedAction.WindowContext ctx,
            ConsequentialWords words,
            Set<String> dialog) {
        Optional<Match> alone = keyOnFocusAlone(chord, el, ctx, words, dialog);
        String key = chord.key();
        if (el.isEmpty()
                || !holdsValueOrChoice(el.get())
                || MOVES.contains(key)
                || key.equals("Tab")
                || key.equals("Escape")) return alone;
        return merge(alone, valueOrChoiceMoved(el.get(), "key " + chord, words, dialog, ctx));
    }

    private static Optional<Match> keyOnFocusAlone(
            Chord chord,
            Optional<ProposedAction.Element> el,
            ProposedAction.WindowContext ctx,
            ConsequentialWords words,
            Set<String> dialog) {
        String on = el.map(e -> " on " + describe(e)).orElse(" with the focused element unknown");
        if (chord.paste()) {
            return Optional.of(new Match(Set.of("paste"), "key " + chord + " pastes the person's clipboard"));
        }
        if (chord.has(Chord.Modifier.ALT) && chord.letterOrDigit()) {
            return Optional.of(new Match(Set.of(), "key " + chord + ": a mnemonic may press any button"));
        }
        // a key on an item of a group may bring the focus or the choice to another of its items (round 18, A1 to A4:
        // a page's tab, tree item, option or grid cell moved to "Pay now", "Delete all files", "Delete account",
        // "Send payment", which a script ran on; round 20's A11: a digit, F6, Insert, Delete, F2, ctrl+Return and
        // shift+Return did the same): every key but Tab, Escape and a plain Enter or space (which press the item
        // itself, judged as that) is judged by the words of the items it can reach
        // An accelerator of the app's menu runs its item (judged as that, in key()), not a move among items
        Optional<Match> reached = el.isPresent()
                        && mayReach(chord)
                        && ctx.accelerators().itemsOf(chord).isEmpty()
                ? reached(el.get(), "key " + chord, words)
                : Optional.empty();
        // a focus that cannot be read may be a terminal (xterm shows no tree), where ctrl+m and ctrl+j are Enter
        boolean terminal = mayBeTerminal(el);
        if (chord.submits(terminal)) {
            Set<String> c = new TreeSet<>();
            // a single-line entry submits on Enter (a search, a chat line, an address); only a default button the
            // window shows says where it goes instead, and is judged as that button
            boolean entrySubmits = !terminal
                    && singleLineEntry(el.get())
                    && ctx.defaultButton().isEmpty();
            if (terminal || el.get().compose() || entrySubmits) c.add("send");
            el.ifPresent(e -> c.addAll(pressed(e, words, dialog, false, ctx)));
            ctx.defaultButton().ifPresent(d -> c.addAll(pressed(d, words, Set.of(), false, ctx)));
            c.addAll(dialog);
            String why = el.isPresent() && el.get().compose() && !terminal
                    ? " in compose field " + describe(el.get())
                    : el.isPresent() && terminal
                            ? " in " + describe(el.get()) + ", where it submits the line"
                            : entrySubmits
                                    ? " in single-line entry " + describe(el.get()) + ", which submits on it"
                                    : on;
            String dflt = ctx.defaultButton()
                    .map(d -> " (default button " + describe(d) + ")")
                    .orElse("");
            return merge(match(c, "key " + chord + why + dflt, dialog), reached);
        }
        // a key that moves the caret up or down in a single-line entry has no line to go to: it opens and walks the
        // list of suggestions the field offers (Chromium's autofill, a datalist), which the tree does not show, and
        // Enter then puts the person's stored entry into the field (round 20's B5)
        if (el.isPresent() && suggests(el.get()) && VERTICAL.contains(chord.key())) {
            return merge(
                    Optional.of(new Match(
                            Set.of(UNIDENTIFIED),
                            "key " + chord + " in " + describe(el.get())
                                    + ", a field of one line, may open and walk a list of suggestions the tree does"
                                    + " not show"
                                    + " (autofill, a datalist)")),
                    reached);
        }
        // a key that moves a list's choice in a dialog may run what choosing does (round 10: yad's --select-action
        // under "Selecting a file deletes it" ran on key Down): judged by the dialog's words
        if (el.isPresent()
                && (ROWS.contains(el.get().role().toLowerCase(Locale.ROOT).trim())
                        || LISTS.contains(
                                el.get().role().toLowerCase(Locale.ROOT).trim()))
                && MOVES.contains(chord.key())
                && !dialog.isEmpty()) {
            return merge(
                    match(new TreeSet<>(dialog), "key " + chord + " moves the choice of " + describe(el.get()), dialog),
                    reached);
        }
        if (el.isPresent() && MOVES.contains(chord.key()) && holdsValueOrChoice(el.get())) {
            return merge(valueOrChoiceMoved(el.get(), "key " + chord, words, dialog, ctx), reached);
        }
        if (reached.isPresent()) return reached;
        // with the focus unknown a key that moves may move any control's value or choice (round 17, G3: yad's scale
        // under "Pay now…" in a window that was not active, where GTK 3 reports no focused element): judged by the
        // dialog's words
        if (el.isEmpty() && MOVES.contains(chord.key())) {
            return match(
                    new TreeSet<>(dialog),
                    "key " + chord + " with the focused element unknown, which may move a control's value or choice",
                    dialog);
        }
        if (chord.key().equals("space")) {
            if (el.isEmpty()) return Optional.of(new Match(Set.of(), "key " + chord + on));
            return match(pressed(el.get(), words, dialog, false, ctx), "key " + chord + on, dialog);
        }
        return Optional.empty();
    }

    /**
     * A key or typing on a focused control that sets its value or its choice (round 15, K1: {@code key Down},
     * {@code End} or {@code type "De"} on a select or a slider, the person in the granted window): a value control's
     * is judged by its words as a press of it, as {@code set_text} of a number there is; a combo box's moves to an
     * option the tree may not show (a collapsed select lists none), so it is judged by the box's words, and is
     * {@link #UNIDENTIFIED} when they say nothing (choosing with {@code select} names the option, which is judged).
     * Only for an element {@link #holdsValueOrChoice}.
     */
    private static Optional<Match> valueOrChoiceMoved(
            ProposedAction.Element e,
            String what,
            ConsequentialWords words,
            Set<String> dialog,
            ProposedAction.WindowContext ctx) {
        if (VALUE_ROLES.contains(e.role().toLowerCase(Locale.ROOT).trim())) {
            return match(
                    pressed(e, words, dialog, false, ctx),
                    what + " changes the value of " + describe(e) + ", as pressing it would",
                    dialog);
        }
        Set<String> c = elementCategories(e, words, dialog);
        if (c.isEmpty()) c.add(UNIDENTIFIED);
        return match(
                c,
                what + " moves the choice of " + describe(e) + " to an option the tree may not show"
                        + " (select names the option)",
                dialog);
    }

    /**
     * The categories of the items a key that moves, or a letter, can bring the focus or the choice to from {@code e}
     * ({@link ProposedAction.Element#reach}, read from its group in the tree); empty when none says anything gated.
     */
    private static Optional<Match> reached(ProposedAction.Element e, String what, ConsequentialWords words) {
        if (!e.placed() && !e.editable()) {
            return Optional.of(new Match(
                    Set.of(UNIDENTIFIED),
                    what + " on " + describe(e) + ", a focus the window's tree does not hold, whose group and what a"
                            + " key on it reaches cannot be read"));
        }
        Set<String> c = new TreeSet<>();
        for (String t : e.reach()) c.addAll(words.categoriesIn(t));
        if (c.isEmpty()) return Optional.empty();
        return Optional.of(new Match(
                c,
                what + " on " + describe(e) + " may bring the focus or the choice to another of the "
                        + e.reach().size() + " items of its group"));
    }

    /** A value control, or a combo box that takes no text: a key that moves, or typing, sets what it holds. */
    private static boolean holdsValueOrChoice(ProposedAction.Element e) {
        String role = e.role().toLowerCase(Locale.ROOT).trim();
        return VALUE_ROLES.contains(role) || (!e.editable() && CHOICE_ROLES.contains(role));
    }

    /**
     * A terminal (or a focus that cannot be read) whose keys a program other than a shell at its prompt reads: a
     * full-screen program ({@code vim}: {@code ggdGZZ} empties and saves a file) or a job in the foreground, where
     * any letter may be a command, so every key and every typed text is {@code send}.
     */
    private static Optional<Match> programReadsKeys(
            ProposedAction a, Optional<ProposedAction.Element> el, String what) {
        if (!a.context().programReadsKeys() || !mayBeTerminal(el)) return Optional.empty();
        return Optional.of(new Match(
                Set.of("send"),
                what + " " + el.map(e -> "in " + describe(e)).orElse("with the focused element unknown")
                        + ", where a program other than a shell at its prompt reads the terminal's keys"));
    }

    /**
     * A field that may offer suggestions a vertical key walks: a single-line entry (Chromium's autofill) or a combo
     * box that takes text (a page's {@code <input list>}, round 20's V-datalist).
     */
    private static boolean suggests(ProposedAction.Element e) {
        return singleLineEntry(e)
                || e.editable() && e.role().toLowerCase(Locale.ROOT).trim().equals("combo box");
    }

    /** A single-line text entry (the toolkit reports it single-line): Enter submits what it holds. */
    static boolean singleLineEntry(ProposedAction.Element e) {
        String r = e.role().toLowerCase(Locale.ROOT).trim();
        return e.editable() && !e.compose() && (r.equals("text") || r.equals("entry"));
    }

    /** A terminal: every line it takes is submitted to the program behind it. */
    /** A terminal, or a focus that cannot be read, which may be one (xterm shows no tree). */
    static boolean mayBeTerminal(Optional<ProposedAction.Element> el) {
        return el.isEmpty() || terminal(el.get());
    }

    static boolean terminal(ProposedAction.Element e) {
        return e.role().toLowerCase(Locale.ROOT).trim().equals("terminal");
    }

    private static Optional<Match> match(Set<String> categories, String what, Set<String> dialog) {
        if (categories.isEmpty()) return Optional.empty();
        return Optional.of(new Match(
                categories, what + (dialog.isEmpty() ? "" : " in a dialog about " + String.join(", ", dialog))));
    }

    /** The element's own categories (its name's and every shown text's), plus the dialog's for anything but a text field. */
    private static Set<String> elementCategories(
            ProposedAction.Element e, ConsequentialWords words, Set<String> dialog) {
        Set<String> c = new TreeSet<>(words.categoriesIn(e.name()));
        for (String shown : e.shown()) c.addAll(words.categoriesIn(shown));
        if (!e.editable()) c.addAll(dialog);
        return c;
    }

    /**
     * The categories of pressing {@code e}: its {@link #elementCategories}, and {@link #UNIDENTIFIED} when it says
     * nothing at all ({@link ProposedAction.Element#saysNothing}) and is a control, or — {@code anyElement}, for a
     * click — anything but a text field: what pressing it does, the tree does not say.
     */
    static Set<String> pressed(
            ProposedAction.Element e,
            ConsequentialWords words,
            Set<String> dialog,
            boolean anyElement,
            ProposedAction.WindowContext ctx) {
        Set<String> c = elementCategories(e, words, dialog);
        if (e.saysNothing()
                && !e.editable()
                && (e.action() || (anyElement && !ProposedAction.Element.textRole(e.role())))) {
            c.add(UNIDENTIFIED);
        }
        if (c.isEmpty() && ctx.asks() && unlisted(e)) c.add(ConsequentialWords.UNLISTED);
        // a question's answer does what its text says, which no list reads: all but a dismissing one gate (round 11)
        if (c.isEmpty()
                && ctx.question()
                && BUTTONS.contains(e.role().toLowerCase(Locale.ROOT).trim())
                && !(ConsequentialWords.dismissing(e.name()) && !echoes(e.name(), ctx.text())))
            c.add(ConsequentialWords.UNLISTED);
        return c;
    }

    /**
     * Whether a word of {@code label} is a word of the dialog's {@code text}, or a form of it, function words aside: an answer that
     * repeats its question does what the question says, even a dismissing one ({@code Cancel} under "Cancel the plan
     * and lose your saved projects?", {@code Close} under "Close your account?": round 11's EC).
     */
    public static boolean echoes(String label, String text) {
        List<String> asked = Labels.read(text).words();
        for (String w : Labels.read(label).words()) {
            if (ConsequentialWords.functionWord(w)) continue;
            for (String t : asked) if (t.equals(w) || inflects(t, w)) return true;
        }
        return false;
    }

    /**
     * Whether {@code t} is a form of {@code w} of {@value ConsequentialWords#MIN_AFFIXED} letters or more: its stem (a
     * final {@code e} dropped) and at most five letters more ({@code closed}, {@code closes}, {@code closing} of
     * {@code close}; round 14's Q5: "shredded when this window is closed" over a lone Close).
     */
    private static boolean inflects(String t, String w) {
        if (w.length() < ConsequentialWords.MIN_AFFIXED) return false;
        String stem = w.endsWith("e") ? w.substring(0, w.length() - 1) : w;
        return t.startsWith(stem) && t.length() > w.length() && t.length() - stem.length() <= 5;
    }

    /** The roles of a button that answers a dialog. */
    private static final Set<String> BUTTONS = Set.of("push button", "button");

    /**
     * Whether {@code e} is a dialog's button that says something neither the word list nor {@link
     * ConsequentialWords#everyday} knows: its name, or any text it shows, is not everyday. A default that refuses.
     */
    static boolean unlisted(ProposedAction.Element e) {
        if (!BUTTONS.contains(e.role().toLowerCase(Locale.ROOT).trim()) || e.saysNothing()) return false;
        if (!e.name().isBlank() && !ConsequentialWords.everyday(e.name())) return true;
        for (String shown : e.shown()) {
            if (!shown.isBlank() && !ConsequentialWords.everyday(shown)) return true;
        }
        return false;
    }

    /** Whether the person's named entries cover this consequential action. */
    public static boolean named(Set<String> namedEntries, ProposedAction a, Match m) {
        if (a.element().isPresent()) {
            ProposedAction.Element e = a.element().get();
            if (namedEntries.contains(e.role().toLowerCase(Locale.ROOT).trim() + ":" + e.name())) return true;
        }
        if (a.chord().isPresent() && namedEntries.contains("key:" + a.chord().get())) return true;
        if (a.chord().isPresent()) {
            // an accelerator is named as its menu item is
            for (ProposedAction.Element item :
                    a.context().accelerators().itemsOf(a.chord().get())) {
                if (namedEntries.contains(item.role().toLowerCase(Locale.ROOT).trim() + ":" + item.name())) return true;
            }
        }
        return !m.categories().isEmpty() && namedEntries.containsAll(m.categories());
    }

    /**
     * Normalises the named entries of a grant: categories lower case; {@code role:name} with the role
     * lower case and the name exact; {@code key:chord} with the chord in {@link Chord} normal form.
     *
     * @throws IllegalArgumentException naming {@code consequential} for a null, blank or unreadable entry
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
                    throw new IllegalArgumentException(
                            "consequential entry '" + e + "' must be a single word, 'role:name' or 'key:chord'");
                }
                out.add(w);
            } else {
                String role = e.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String rest = e.substring(colon + 1);
                if (role.isEmpty() || rest.isBlank()) {
                    throw new IllegalArgumentException(
                            "consequential entry '" + e + "' must be a single word, 'role:name' or 'key:chord'");
                }
                if (role.equals("key")) {
                    try {
                        out.add("key:" + Chord.parseLenient(rest));
                    } catch (IllegalArgumentException bad) {
                        throw new IllegalArgumentException(
                                "consequential entry '" + e + "' names no chord: " + bad.getMessage());
                    }
                } else {
                    out.add(role + ":" + rest);
                }
            }
        }
        return Collections.unmodifiableSet(out);
    }

    /**
     * The element as a refusal and a card's consequential line name it: its role and the length of its name. The
     * name is the app's text, and this description reaches the MCP client; the card's step line names the element
     * for the person.
     */
    static String describe(ProposedAction.Element e) {
        if (e.saysNothing()) return e.role() + " (it shows no name, description or text in words)";
        long more = e.shown().stream().filter(t -> !t.isBlank()).count();
        return e.role() + " (name of " + e.name().length() + " characters"
                + (more == 0 ? "" : ", " + more + " other text" + (more == 1 ? "" : "s") + " shown") + ")";
    }
}
