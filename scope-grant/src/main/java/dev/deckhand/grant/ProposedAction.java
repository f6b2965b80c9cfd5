package dev.deckhand.grant;

import java.util.Objects;
import java.util.Optional;

/**
 * One action the loop is about to deliver, reduced to what the policy needs to judge it by effect.
 * Never carries typed text.
 *
 * @param kind the action kind
 * @param decidedAtRevision the grant revision the action was decided under (its uids and basis belong to it)
 * @param targetWindowId the window the action lands in
 * @param element what the action lands on: the element of an element action, the element under a
 *     {@code click_at} point (resolved before the policy), the focused element for {@code key} and
 *     {@code type}; empty when unknown
 * @param chord the normalised chord of a {@code key} action
 * @param option the option a {@code select} picks
 * @param basis the capture basis a {@code click_at} was computed against
 * @param context the window the action lands in: whether it is a dialog, its text, its default button
 * @param approved a valid approval for this action's batch, bound to the current revision and basis,
 *     has been consumed ({@link ApprovalBook#consume})
 * @param beyondAscii a {@code type} whose text has a character outside printable ASCII (U+0020–U+007E): a terminal
 *     may read one as a key (8-bit Meta under the C locale makes {@code ±} Meta-1); the text itself is never here
 */
public record ProposedAction(
        ActionKind kind,
        long decidedAtRevision,
        long targetWindowId,
        Optional<Element> element,
        Optional<Chord> chord,
        Optional<String> option,
        Optional<BasisInfo> basis,
        WindowContext context,
        boolean approved,
        boolean beyondAscii) {

    public ProposedAction {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(element, "element");
        Objects.requireNonNull(chord, "chord");
        if (kind == ActionKind.KEY && chord.isEmpty()) throw new IllegalArgumentException("keys is required for key");
        Objects.requireNonNull(option, "option");
        Objects.requireNonNull(basis, "basis");
        Objects.requireNonNull(context, "context");
    }

    /**
     * A target element as the accessibility tree shows it.
     *
     * @param role platform role in lower case ({@code push button}, {@code text}, {@code password text})
     * @param name accessible name, "" when unnamed
     * @param own the element belongs to one of Deckhand's own surfaces
     * @param compose an editable text that is not known to be single-line (a compose field: Enter in it may send)
     * @param editable it takes typed text
     * @param shown every other text the element shows a person, gated as its name is: its description (where
     *     toolkits put the tooltip), the text it displays (a web button's visible text under an
     *     {@code aria-label}), its descendants' names and texts (a button's label child), and for a control
     *     that shows none of these the name or description of the group it is the only control of; empty
     *     when not read
     * @param reach for a focused item of a group (a tab, a tree's item, an option, a grid's cell), the texts of the
     *     group's other items, one per item, where a key that moves or a typed letter can bring the focus or the
     *     choice; empty otherwise
     * @param placed false for a focused element that the window's tree does not hold, whose group cannot be read
     */
    public record Element(
            String role,
            String name,
            boolean own,
            boolean compose,
            boolean editable,
            java.util.List<String> shown,
            java.util.List<String> reach,
            boolean placed) {
        public Element {
            Objects.requireNonNull(role, "element.role");
            Objects.requireNonNull(name, "element.name");
            shown = java.util.List.copyOf(Objects.requireNonNull(shown, "element.shown"));
            reach = java.util.List.copyOf(Objects.requireNonNull(reach, "element.reach"));
        }

        /** An element from which no key reaches another choice (see {@link #reach}). */
        public Element(
                String role,
                String name,
                boolean own,
                boolean compose,
                boolean editable,
                java.util.List<String> shown) {
            this(role, name, own, compose, editable, shown, java.util.List.of(), true);
        }

        /**
         * This element with {@code texts}, the words of the other items of its container (a tab list's tabs, a
         * tree's items, a list's options, a grid's cells) a key that moves, or a typed letter, brings the focus or the
         * choice to.
         */
        public Element withReach(java.util.List<String> texts) {
            return new Element(role, name, own, compose, editable, shown, texts, placed);
        }

        /**
         * This element as a focus the window's tree does not hold (an image map's area, an element the walk left
         * out): what a key on it reaches cannot be read, see {@link #placed}.
         */
        public Element unplaced() {
            return new Element(role, name, own, compose, editable, shown, reach, false);
        }

        /** An element that shows no text but its name. */
        public Element(String role, String name, boolean own, boolean compose, boolean editable) {
            this(role, name, own, compose, editable, java.util.List.of());
        }

        /** An element whose editability follows its role (text, entry, paragraph and the like take text). */
        public Element(String role, String name, boolean own, boolean compose) {
            this(role, name, own, compose, compose || textRole(role));
        }

        /**
         * The roles of a list's or table's rows and cells: a toolkit clicks one by activating it (Enter there), and the
         * focused one is a list's choice where no state says more.
         */
        public static final java.util.Set<String> ROW_ROLES =
                java.util.Set.of("table cell", "cell", "list item", "table row", "row", "tree item", "tree table cell");

        /**
         * Controls whose value is set rather than written: the driver sets a number given to {@code set_text} as the
         * value of one of these (and of no other role) when it has no text to edit, and the consequential gate judges
         * a value set on one, and a key that moves it, as a press of it. One set for both, so the driver cannot set
         * a value the gate does not judge.
         */
        public static final java.util.Set<String> VALUE_ROLES =
                java.util.Set.of("slider", "spin button", "scroll bar", "dial");

        /**
         * Roles a person presses to make something happen: a control of one of these whose purpose the tree does
         * not say at all is {@link Consequential#UNIDENTIFIED}.
         */
        public static final java.util.Set<String> ACTION_ROLES = java.util.Set.of(
                "push button",
                "toggle button",
                "button",
                "tool bar button",
                "link",
                "menu item",
                "check menu item",
                "radio menu item",
                "check box",
                "radio button",
                "switch");

        /** Whether this is a control a person presses ({@link #ACTION_ROLES}). */
        public boolean action() {
            return ACTION_ROLES.contains(role.toLowerCase(java.util.Locale.ROOT).trim());
        }

        /**
         * Whether the element says nothing about itself: its name and every text it shows hold nothing but white
         * space, format characters, object placeholders ({@code U+FFFC}) and pictographs — the other symbols of
         * general category So (🗑, 🛒, ✉), with the modifiers and marks emoji take — which the word list cannot read.
         * A letter, a digit, a mathematical symbol or punctuation says something ({@code +}, {@code ×}, {@code %},
         * {@code 7}: a calculator's keys).
         */
        public boolean saysNothing() {
            if (says(name)) return false;
            for (String s : shown) if (says(s)) return false;
            return true;
        }

        private static boolean says(String s) {
            if (s == null) return false;
            for (int i = 0; i < s.length(); ) {
                int cp = s.codePointAt(i);
                i += Character.charCount(cp);
                int type = Character.getType(cp);
                if (Character.isWhitespace(cp)
                        || Character.isSpaceChar(cp)
                        || cp == 0xFFFC
                        || type == Character.FORMAT
                        || type == Character.CONTROL
                        || type == Character.OTHER_SYMBOL
                        || type == Character.MODIFIER_SYMBOL
                        || type == Character.NON_SPACING_MARK
                        || type == Character.ENCLOSING_MARK) {
                    continue;
                }
                return true;
            }
            return false;
        }

        /** This element with {@code more} texts it shows. */
        public Element showing(java.util.List<String> more) {
            java.util.List<String> all = new java.util.ArrayList<>(shown);
            all.addAll(more);
            return new Element(role, name, own, compose, editable, all, reach, placed);
        }

        /** Roles whose elements take typed text. */
        public static boolean textRole(String role) {
            String r = role.toLowerCase(java.util.Locale.ROOT);
            return r.equals("text")
                    || r.equals("entry")
                    || r.equals("document text")
                    || r.equals("paragraph")
                    || r.equals("terminal")
                    || r.equals("password text")
                    || r.equals("spin button")
                    || r.equals("combo box");
        }
    }

    /**
     * The window an action lands in, as the guard read it from the tree.
     *
     * @param dialog the window is a dialog (an alert or dialog role, or transient-for / modal)
     * @param text the dialog's own text: its title and the names of its labels (empty when not a dialog)
     * @param defaultButton the window's default button, when the tree shows one
     * @param accelerators the keyboard accelerators of the window's menu items (read for {@code key} only)
     * @param programReadsKeys a terminal of the window gives its keys to a program other than a shell at its prompt
     *     (read for {@code key} and {@code type} only): a full-screen program or a job in the foreground, where a
     *     letter can be a command
     * @param unreadChoice the window shows a choice its OK would confirm that Deckhand cannot read (a web page's
     *     {@code <select>} whose value the tree gives only as U+FFFC)
     * @param asks the dialog asks one thing, so its buttons answer it: at most a few controls and no text area (an
     *     alert, a confirmation, a small form), where a button no list places is {@code unlisted}
     * @param question the dialog asks one thing and shows nothing but text and two buttons or more (no field, box or
     *     list to set): a question, whose answers other than the dismissing ones ({@code Cancel}, {@code No},
     *     {@code Later}) do what its text says, which no list reads, so they are {@code unlisted}
     * @param treeless the window shows no accessibility tree at all (xterm, Athena apps): what receives its keys and
     *     text cannot be seen, so they are blind input ({@link Policy#blind})
     * @param menuHoldsKeys a menu of the granted app holds the keyboard (its own popup's grab, measured): a letter
     *     chooses one of its items by its mnemonic, Enter and space the highlighted one, whichever element the
     *     toolkit still reports focused
     */
    public record WindowContext(
            boolean dialog,
            String text,
            Optional<Element> defaultButton,
            Accelerators accelerators,
            boolean programReadsKeys,
            boolean unreadChoice,
            boolean asks,
            boolean question,
            boolean treeless,
            boolean menuHoldsKeys) {
        public static final WindowContext NONE = new WindowContext(false, "", Optional.empty());

        public WindowContext {
            Objects.requireNonNull(text, "context.text");
            Objects.requireNonNull(defaultButton, "context.defaultButton");
            Objects.requireNonNull(accelerators, "context.accelerators");
        }

        /**
         * A context whose terminal, if any, reads keys at a shell's prompt, whose choices are read, and which, if a
         * dialog, asks one thing.
         */
        public WindowContext(boolean dialog, String text, Optional<Element> defaultButton, Accelerators accelerators) {
            this(dialog, text, defaultButton, accelerators, false, false, dialog, false, false, false);
        }

        /** A context whose accelerators are unknown. */
        public WindowContext(boolean dialog, String text, Optional<Element> defaultButton) {
            this(dialog, text, defaultButton, Accelerators.UNKNOWN);
        }

        public WindowContext withDialog(boolean v) {
            return new WindowContext(
                    v,
                    text,
                    defaultButton,
                    accelerators,
                    programReadsKeys,
                    unreadChoice,
                    asks,
                    question,
                    treeless,
                    menuHoldsKeys);
        }

        public WindowContext withAccelerators(Accelerators v) {
            return new WindowContext(
                    dialog,
                    text,
                    defaultButton,
                    v,
                    programReadsKeys,
                    unreadChoice,
                    asks,
                    question,
                    treeless,
                    menuHoldsKeys);
        }

        public WindowContext withProgramReadsKeys(boolean v) {
            return new WindowContext(
                    dialog,
                    text,
                    defaultButton,
                    accelerators,
                    v,
                    unreadChoice,
                    asks,
                    question,
                    treeless,
                    menuHoldsKeys);
        }

        public WindowContext withUnreadChoice(boolean v) {
            return new WindowContext(
                    dialog,
                    text,
                    defaultButton,
                    accelerators,
                    programReadsKeys,
                    v,
                    asks,
                    question,
                    treeless,
                    menuHoldsKeys);
        }

        public WindowContext withAsks(boolean v) {
            return new WindowContext(
                    dialog,
                    text,
                    defaultButton,
                    accelerators,
                    programReadsKeys,
                    unreadChoice,
                    v,
                    question,
                    treeless,
                    menuHoldsKeys);
        }

        public WindowContext withQuestion(boolean v) {
            return new WindowContext(
                    dialog,
                    text,
                    defaultButton,
                    accelerators,
                    programReadsKeys,
                    unreadChoice,
                    asks,
                    v,
                    treeless,
                    menuHoldsKeys);
        }

        public WindowContext withTreeless(boolean v) {
            return new WindowContext(
                    dialog,
                    text,
                    defaultButton,
                    accelerators,
                    programReadsKeys,
                    unreadChoice,
                    asks,
                    question,
                    v,
                    menuHoldsKeys);
        }

        public WindowContext withMenuHoldsKeys(boolean v) {
            return new WindowContext(
                    dialog,
                    text,
                    defaultButton,
                    accelerators,
                    programReadsKeys,
                    unreadChoice,
                    asks,
                    question,
                    treeless,
                    v);
        }
    }

    /** An action with no element, chord, option or basis (wait; a click_at whose point shows nothing). */
    public static ProposedAction bare(ActionKind kind, long revision, long windowId) {
        return new ProposedAction(
                kind,
                revision,
                windowId,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                WindowContext.NONE,
                false,
                false);
    }

    /** An action on an element (click, set_text, focus, scroll, select without option). */
    public static ProposedAction on(ActionKind kind, long revision, long windowId, Element element) {
        return new ProposedAction(
                kind,
                revision,
                windowId,
                Optional.ofNullable(element),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                WindowContext.NONE,
                false,
                false);
    }

    /**
     * {@code type} into the focused element ({@code focused} null when unknown); whether {@code text} has a character
     * outside printable ASCII is kept, the text is not.
     */
    public static ProposedAction type(long revision, long windowId, Element focused, String text) {
        boolean beyond = text.chars().anyMatch(ch -> ch < 0x20 || ch > 0x7e);
        return new ProposedAction(
                ActionKind.TYPE,
                revision,
                windowId,
                Optional.ofNullable(focused),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                WindowContext.NONE,
                false,
                beyond);
    }

    /** {@code select} of {@code option} in {@code element}. */
    public static ProposedAction select(long revision, long windowId, Element element, String option) {
        return new ProposedAction(
                ActionKind.SELECT,
                revision,
                windowId,
                Optional.ofNullable(element),
                Optional.empty(),
                Optional.of(option),
                Optional.empty(),
                WindowContext.NONE,
                false,
                false);
    }

    /** A key chord delivered to the focused element ({@code focused} may be null when unknown). */
    public static ProposedAction key(Chord chord, long revision, long windowId, Element focused) {
        return new ProposedAction(
                ActionKind.KEY,
                revision,
                windowId,
                Optional.ofNullable(focused),
                Optional.of(chord),
                Optional.empty(),
                Optional.empty(),
                WindowContext.NONE,
                false,
                false);
    }

    /** {@link #key(Chord, long, long, Element)} of a chord's text. */
    public static ProposedAction key(String keys, long revision, long windowId, Element focused) {
        return key(Chord.parse(keys), revision, windowId, focused);
    }

    /** Coordinate input against a capture basis; {@code hit} is the element at the point, when known. */
    public static ProposedAction clickAt(long revision, long windowId, BasisInfo basis, Element hit) {
        return new ProposedAction(
                ActionKind.CLICK_AT,
                revision,
                windowId,
                Optional.ofNullable(hit),
                Optional.empty(),
                Optional.empty(),
                Optional.ofNullable(basis),
                WindowContext.NONE,
                false,
                false);
    }

    public ProposedAction withApproved(boolean v) {
        return new ProposedAction(
                kind, decidedAtRevision, targetWindowId, element, chord, option, basis, context, v, beyondAscii);
    }

    public ProposedAction withContext(WindowContext v) {
        return new ProposedAction(
                kind, decidedAtRevision, targetWindowId, element, chord, option, basis, v, approved, beyondAscii);
    }

    /** Whether this action delivers input. */
    public boolean input() {
        return kind.input();
    }
}
