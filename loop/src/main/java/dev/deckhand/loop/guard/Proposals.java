package dev.deckhand.loop.guard;

import dev.deckhand.grant.ActionKind;
import dev.deckhand.grant.BasisInfo;
import dev.deckhand.grant.Consequential;
import dev.deckhand.grant.ConsequentialWords;
import dev.deckhand.grant.ProposedAction;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.action.ElementAction;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.loop.observe.Roles;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What an action will do, in the policy's terms ({@link ProposedAction}), read from the tree the model
 * saw and the facts read now: the element under a {@code click_at} point (the same hit test the driver
 * uses), the option of a {@code select}, the normalised chord, the focused element a {@code key} or
 * {@code type} goes to (the fresh accessibility focus when known), and the window's context — whether it
 * is a dialog, its text, its default button.
 */
public final class Proposals {

    /** Roles of a window that make it a dialog. */
    static final Set<String> DIALOG_ROLES = Set.of("dialog", "alert", "file chooser", "color chooser", "font chooser");
    /** Leaves that say what they are without being controls; a click_at on them is identified. */
    static final Set<String> LEAF_ROLES =
            Set.of("label", "static", "heading", "paragraph", "image", "icon", "separator", "status bar", "caption");

    private Proposals() {}

    /**
     * @param basis the capture basis of a {@code click_at} (null otherwise)
     * @throws RefusedException {@code SECURE_INPUT} for {@code type} when the focused element cannot be read
     */
    public static ProposedAction propose(
            Action action, ScopedTree tree, long window, BasisInfo basis, Basis captureBasis, DesktopFacts facts) {
        long revision = tree.grantRevision();
        WindowInfo granted = FactsMapper.window(facts, window).orElse(null);
        ProposedAction.WindowContext context = strictest(tree, granted)
                .withTreeless(noTree(tree))
                .withMenuHoldsKeys(granted != null && facts.keyboardGrabbed() && FactsMapper.ownGrab(facts, granted));
        if (action instanceof Action.ClickAt c) {
            Optional<Node> hit = Optional.empty();
            if (captureBasis != null) {
                Geometry g = captureBasis.windowGeometry();
                hit = tree.at(
                        g.x() + (int) Math.floor(c.x() / captureBasis.scale()),
                        g.y() + (int) Math.floor(c.y() / captureBasis.scale()));
            }
            // the pointer's click reaches the control the point lies in (a button's label, its icon); a container
            // (frame, panel, canvas, drawing area, …) outside any control says nothing about what is drawn there
            Optional<Node> at = hit;
            Optional<Node> pressed = at.flatMap(n -> control(tree, n))
                    .or(() -> at.filter(n -> Roles.interactive(n.role()) || LEAF_ROLES.contains(n.role())));
            return ProposedAction.clickAt(
                            revision,
                            window,
                            basis,
                            pressed.map(n -> element(tree, n)).orElse(null))
                    .withContext(context);
        }
        if (action instanceof Action.Key k) {
            Optional<ProposedAction.Element> focused = focused(tree, facts, window);
            if (focused.isEmpty() && k.chord().editsText() && !noTree(tree)) {
                throw new RefusedException(Refusal.secureInput(
                        facts.passwordFocused()
                                ? "the focused element is a password field"
                                : "key " + k.chord()
                                        + " writes into the focused element, which cannot be read, so it may be"
                                        + " a password field"));
            }
            return ProposedAction.key(k.chord(), revision, window, focused.orElse(null))
                    .withContext(context);
        }
        if (action instanceof Action.Type t) {
            Optional<ProposedAction.Element> focused = focused(tree, facts, window);
            if (focused.isEmpty() && noTree(tree)) {
                return ProposedAction.type(revision, window, null, t.text()).withContext(context);
            }
            if (focused.isEmpty()) {
                // Typed text goes to whatever has focus; unread focus could be a password field.
                throw new RefusedException(Refusal.secureInput(
                        facts.passwordFocused()
                                ? "the focused element is a password field"
                                : "the focused element cannot be read, so it may be a password field; type is refused"
                                        + " (set_text names its target)"));
            }
            return ProposedAction.type(revision, window, focused.get(), t.text())
                    .withContext(context);
        }
        ActionKind kind = ActionKind.valueOf(action.kind().toUpperCase(Locale.ROOT));
        if (action instanceof Action.Select s) {
            return ProposedAction.select(
                            revision,
                            window,
                            tree.byUid(s.uid()).map(n -> element(tree, n)).orElse(null),
                            s.option())
                    .withContext(context);
        }
        if (action instanceof ElementAction e) {
            Optional<Node> target = tree.byUid(e.uid());
            // a click on part of a control (its label, its icon) is judged as a press of the control
            if (kind == ActionKind.CLICK)
                target = target.map(n -> control(tree, n).orElse(n));
            return ProposedAction.on(
                            kind,
                            revision,
                            window,
                            target.map(n -> element(tree, n)).orElse(null))
                    .withContext(target.map(n -> inDialog(tree, n, context)).orElse(context));
        }
        return ProposedAction.bare(kind, revision, window).withContext(context);
    }

    /**
     * The context of every window of the observation together (an app grant's window and the dialogs that joined it,
     * each from a root at depth 0): the words of all of them, since a window's text may say what another's button
     * does (a reviewer's main window said what its dialog's lone OK deleted), and each window's strictness: a dialog,
     * one that asks one thing, a question, if any window is. Until 2026-12-07 the windows were read as one, and an
     * editor's text area turned those two defaults off for every small dialog that joined it.
     */
    static ProposedAction.WindowContext strictest(ScopedTree tree, WindowInfo granted) {
        ProposedAction.WindowContext all = context(tree, granted);
        List<Integer> roots = roots(tree);
        if (roots.size() < 2) return all;
        boolean dialog = all.dialog(), asks = all.asks(), question = all.question();
        // every window's text when they read as one dialog, as before; else the texts of the windows that are dialogs
        StringBuilder text = new StringBuilder(all.text());
        for (int w = 0; w < roots.size(); w++) {
            ProposedAction.WindowContext one = ofWindow(tree, roots, w, granted);
            dialog |= one.dialog();
            asks |= one.asks();
            question |= one.question();
            if (!all.dialog() && one.dialog()) text.append('\n').append(one.text());
            // a joined window's title, whatever its root's role
            if (w > 0) text.append('\n').append(tree.nodes().get(roots.get(w)).name());
        }
        return new ProposedAction.WindowContext(dialog, text.toString(), all.defaultButton(), all.accelerators())
                .withAsks(asks)
                .withQuestion(question);
    }

    /** The indices of the observation's roots (depth 0), one per window; empty unless the first node is one. */
    private static List<Integer> roots(ScopedTree tree) {
        List<Node> nodes = tree.nodes();
        List<Integer> roots = new java.util.ArrayList<>();
        if (nodes.isEmpty() || nodes.get(0).depth() != 0) return roots;
        for (int i = 0; i < nodes.size(); i++) if (nodes.get(i).depth() == 0) roots.add(i);
        return roots;
    }

    /** The context of window {@code w} (the index of its root in {@code roots}) alone. */
    private static ProposedAction.WindowContext ofWindow(
            ScopedTree tree, List<Integer> roots, int w, WindowInfo granted) {
        List<Node> nodes = tree.nodes();
        int from = roots.get(w);
        int to = w + 1 < roots.size() ? roots.get(w + 1) : nodes.size();
        ScopedTree one = new ScopedTree(tree.windowId(), tree.grantRevision(), nodes.subList(from, to), tree.partial());
        // a joined window's own title is its root's name (the granted window's comes from the window list)
        return w == 0
                ? context(one, granted)
                : context(one, null, nodes.get(from).name());
    }

    /**
     * Whether the window has no accessibility tree at all (its app never registers on the bus: xterm,
     * Athena apps), which routing allows only on a pixels grant. Its focus can never be read, so keys and
     * typed text go to the window on the person's pixels grant rather than being refused for an unread
     * focus; a password field elsewhere and a keyboard grab (xterm's Secure Keyboard) still refuse, and an
     * unread focus still makes Enter and space consequential (docs/decisions.md).
     */
    static boolean noTree(ScopedTree tree) {
        return tree.nodes().isEmpty() && !tree.partial();
    }

    /**
     * The element keys and typed text go to: the accessibility focus read now, when it is in the target's
     * process, matched to its node in the tree for its states; empty (unknown) otherwise — the tree the model
     * saw may be seconds old, so its focused node is never trusted for this.
     */
    static Optional<ProposedAction.Element> focused(ScopedTree tree, DesktopFacts facts, long window) {
        int pid = FactsMapper.window(facts, window).map(WindowInfo::pid).orElse(-1);
        // the focus of another app says nothing about where keys sent to this window land
        if (facts.focusedElement().isPresent()
                && (pid <= 0 || facts.focusedElement().get().pid() == pid)) {
            DesktopFacts.FocusedElement f = facts.focusedElement().get();
            List<Node> nodes = tree.nodes();
            Node matched = null;
            // an office paragraph is no compose field only when the focus has bounds and every node it matches
            // is one: a twin at the same place outside the document could be the one that holds it
            boolean office = f.bounds() != null;
            for (int i = 0; i < nodes.size(); i++) {
                Node n = nodes.get(i);
                if (n.role().equals(f.role())
                        && n.name().equals(f.name())
                        && (f.bounds() == null || Objects.equals(n.bounds(), f.bounds()))) {
                    if (matched == null) matched = n;
                    office &= n.editable() && n.role().equals("paragraph") && inOfficeDocument(nodes, i);
                }
            }
            if (matched != null) {
                matched = choiceHolding(tree, matched);
                return Optional.of(
                        office
                                ? new ProposedAction.Element(matched.role(), matched.name(), false, false, true)
                                : element(tree, matched).withReach(reach(tree, matched)));
            }
            boolean text = ProposedAction.Element.textRole(f.role());
            ProposedAction.Element focus = new ProposedAction.Element(f.role(), f.name(), false, text, text);
            // a focus the tree does not hold (round 20's V-area: an image map's area, which the walk does not show);
            // but a container that manages its descendants exposes only some of them (Calc's sheet, whose focused
            // cell is seldom among the cells walked), so where one is shown the focus may be one of its own
            boolean lazy = nodes.stream().anyMatch(n -> n.states().contains("manages-descendants"));
            return Optional.of(lazy ? focus : focus.unplaced());
        }
        return Optional.empty();
    }

    /**
     * What a key, or a typed letter, can bring the focus or the choice to from the focused {@code n}: the texts of the
     * other items of its group, one per item (its name and the texts it shows), and of what it holds itself. Any
     * focus is an item ({@link #item}) but a text field's and one that takes keys as its own content ({@link
     * #TAKES_KEYS}: a word processor's page, a canvas, a terminal, where arrows move a caret; AbiWord's page is
     * focusable and reports no text); not inside an office document, whose cells a cursor moves through, running
     * nothing. A list of roles that make one was passed by the roles it lacked (round 20: a list's items, headings,
     * feed articles, images, description terms, each focusable, moved to "Pay now" by a page's keys).
     *
     * <p>Its group is its nearest ancestor, at any depth, that holds another element a key can move to, or another
     * element of its own role (round 20's A10: tabs each wrapped with their own close button in a group; the tab
     * list holds the other tabs), whichever is higher; those, and the elements of its role there, are the items it
     * reaches. A row's group is its table, as Down leaves the row. What the item holds itself is in its reach too:
     * a focused list whose items the active descendant names (round 20's A9) moves among them. Round 18's A1 to A4
     * and round 19's T1a, T1e, T1h (tabs in four groups, roving links, a toolbar whose script clicks the button a
     * key moves to). A focused element that holds such elements (a list, a tree, a panel) reaches what it holds only.
     */
    static List<String> reach(ScopedTree tree, Node n) {
        List<Node> nodes = tree.nodes();
        int i = indexOf(nodes, n);
        if (i < 0 || !item(n) || inOfficeDocument(nodes, i)) return List.of();
        int end = i + 1;
        while (end < nodes.size() && nodes.get(end).depth() > n.depth()) end++;
        List<String> texts = new ArrayList<>();
        for (int j = i + 1; j < end; j++) {
            Node m = nodes.get(j);
            if (!m.name().equals(n.name()) && !m.name().isBlank()) texts.add(m.name());
        }
        // a focused container (a list whose items the active descendant names) moves its choice among what it holds
        if (holdsItem(nodes, i)) return texts;
        List<Integer> up = ancestors(nodes, i);
        int group = -1;
        boolean ofRole = false;
        for (int k = 0; k < up.size() && !ofRole; k++) {
            int a = up.get(k);
            // the elements of its own role may lie higher up than the nearest other reachable one
            ofRole = holdsRole(nodes, a, i, end, n.role());
            if (group >= 0 && !ofRole) continue;
            boolean another = ofRole;
            for (int j = a + 1;
                    j < nodes.size() && nodes.get(j).depth() > nodes.get(a).depth() && !another;
                    j++) {
                if (j < i || j >= end) another = reachable(nodes.get(j));
            }
            if (!another || nodes.get(a).role().endsWith("row") && k + 1 < up.size()) {
                ofRole = false;
                continue;
            }
            group = a;
        }
        if (group >= 0) {
            int d = nodes.get(group).depth();
            for (int j = group + 1; j < nodes.size() && nodes.get(j).depth() > d; j++) {
                if (j >= i && j < end) continue;
                Node m = nodes.get(j);
                if (!reachable(m) && !m.role().equals(n.role())) continue;
                texts.add(shownBy(nodes, j));
            }
        }
        return texts;
    }

    /**
     * What an item of a group says: its name and texts, and those of what it holds that no key moves to on its own (a
     * page's list item named by its text child: round 20's A4, whose items Chromium reported with no name).
     */
    private static String shownBy(List<Node> nodes, int j) {
        Node m = nodes.get(j);
        StringBuilder t = new StringBuilder(m.name());
        for (String shown : own(m)) t.append(' ').append(shown);
        int read = 0;
        for (int k = j + 1; k < nodes.size() && nodes.get(k).depth() > m.depth() && read < SHOWN_DESCENDANTS; k++) {
            Node c = nodes.get(k);
            if (reachable(c)) continue;
            read++;
            if (!c.name().isBlank()) t.append(' ').append(c.name());
            for (String shown : own(c)) t.append(' ').append(shown);
        }
        return t.toString().strip();
    }

    /** Whether the subtree of {@code nodes[a]}, outside {@code [from, to)}, holds an element of {@code role}. */
    private static boolean holdsRole(List<Node> nodes, int a, int from, int to, String role) {
        int d = nodes.get(a).depth();
        for (int j = a + 1; j < nodes.size() && nodes.get(j).depth() > d; j++) {
            if (j >= from && j < to) continue;
            if (nodes.get(j).role().equals(role)) return true;
        }
        return false;
    }

    /**
     * Roles of elements that take keys as their own content, where arrows move a caret or go to the program drawn
     * there, and of windows and their panes (Writer reported its root pane focused after a set_text, and ctrl+s was
     * judged by the whole window's words): no item a key moves from. A role missing here makes an item, whose keys
     * its group's words judge.
     */
    static final Set<String> TAKES_KEYS = Set.of(
            "drawing area",
            "canvas",
            "terminal",
            "document web",
            "document frame",
            "document text",
            "document spreadsheet",
            "document presentation",
            "document email",
            "embedded",
            "scroll pane",
            "viewport",
            "image map",
            // a window or a pane of one: keys go on to what it holds, they move among no items of its own
            "frame",
            "window",
            "dialog",
            "root pane",
            "layered pane",
            "glass pane",
            "split pane",
            "internal frame",
            "desktop frame",
            "option pane",
            "filler",
            "application");

    /**
     * Whether the focused {@code n} is an item a key moves from: any focus but a text field's and one that takes keys
     * as its content. Not only one a key moves to: Chromium reports the focus on a container's active descendant, a
     * role-less element no key could focus (round 20's V-AD div: "Overview" over "Send payment").
     */
    private static boolean item(Node n) {
        return !(ProposedAction.Element.textRole(n.role()) && n.editable()) && !TAKES_KEYS.contains(n.role());
    }

    /** Whether {@code nodes[i]} holds an item ({@link #reachable}) below it: a container, not an item. */
    private static boolean holdsItem(List<Node> nodes, int i) {
        int d = nodes.get(i).depth();
        for (int j = i + 1; j < nodes.size() && nodes.get(j).depth() > d; j++) {
            if (reachable(nodes.get(j))) return true;
        }
        return false;
    }

    /** An item a key can move the focus or the choice to: focusable, selectable or checkable, or a row or cell. */
    private static boolean reachable(Node m) {
        if (ProposedAction.Element.textRole(m.role()) && m.editable()) return false;
        return m.states().contains("focusable")
                || m.states().contains("selectable")
                || m.states().contains("checkable")
                || ROWS.contains(m.role());
    }

    /** Roles of an office document's body, where Enter breaks a paragraph or commits a cell and sends nothing. */
    static final Set<String> OFFICE_DOCUMENTS =
            Set.of("document text", "document spreadsheet", "document presentation");

    /**
     * Whether {@code nodes[i]} lies inside an office document (its nearest document ancestor has one of
     * {@link #OFFICE_DOCUMENTS}): LibreOffice's text body and the editor of a cell being typed into are multi-line
     * paragraphs there, and they are not compose fields. Only a focus matched to its node by its bounds is judged
     * so; a web page is a {@code document web} and stays a compose field, also when it is embedded in an office
     * document (the nearest document is the one the paragraph belongs to).
     */
    static boolean inOfficeDocument(List<Node> nodes, int i) {
        for (int j : ancestors(nodes, i)) {
            Node a = nodes.get(j);
            if (a.role().startsWith("document")) return OFFICE_DOCUMENTS.contains(a.role());
        }
        return false;
    }

    /** The indexes of the ancestors of {@code nodes[i]}, nearest first (the nodes are in tree order, with depths). */
    static List<Integer> ancestors(List<Node> nodes, int i) {
        List<Integer> out = new ArrayList<>();
        if (i < 0) return out;
        int depth = nodes.get(i).depth();
        for (int j = i - 1; j >= 0 && depth > 0; j--) {
            if (nodes.get(j).depth() >= depth) continue;
            out.add(j);
            depth = nodes.get(j).depth();
        }
        return out;
    }

    /** The parent of {@code n} in {@code tree}, if it has one. */
    static Optional<Node> parent(ScopedTree tree, Node n) {
        List<Node> nodes = tree.nodes();
        List<Integer> up = ancestors(nodes, indexOf(nodes, n));
        return up.isEmpty() ? Optional.empty() : Optional.of(nodes.get(up.get(0)));
    }

    /**
     * The policy's view of an element by itself: its name, and its description and shown text as texts it shows.
     * An editable text that the platform does not say is single-line counts as a compose field (fails closed: Enter
     * in it may send).
     */
    public static ProposedAction.Element element(Node n) {
        boolean text = n.editable() && ProposedAction.Element.textRole(n.role());
        return new ProposedAction.Element(n.role(), n.name(), false, text && !n.singleLine(), text, own(n));
    }

    /** The texts a node shows besides its name: its description and its own shown text. */
    private static List<String> own(Node n) {
        List<String> out = new ArrayList<>(2);
        if (!n.description().isEmpty()) out.add(n.description());
        if (!n.text().isEmpty()) out.add(n.text());
        return out;
    }

    /** At most this many descendants of a control are read for the texts it shows. */
    static final int SHOWN_DESCENDANTS = 64;

    /**
     * The policy's view of an element of {@code tree}: {@link #element(Node)}, and for a control (a role of
     * {@link ProposedAction.Element#ACTION_ROLES}) every text a person sees on it — the names, descriptions and
     * shown texts of its descendants (a button's label child, a web button's spans), leaving out those of a control
     * nested in it (the items of the menu a Qt menu item opens are theirs) — and, when it shows none at
     * all, the name and description of the nearest group it is the only control of (LibreOffice wraps a toolbar
     * icon in a panel whose description is its tooltip, a sidebar tab in a named tool bar of its own).
     */
    public static ProposedAction.Element element(ScopedTree tree, Node n) {
        ProposedAction.Element own = element(n);
        if (!own.action()) return own;
        List<Node> nodes = tree.nodes();
        int i = indexOf(nodes, n);
        if (i < 0) return own;
        List<String> shown = new ArrayList<>();
        int skipBelow = Integer.MAX_VALUE; // a nested control's subtree (a menu's items, a link in a button) is its own
        for (int j = i + 1;
                j < nodes.size() && j <= i + SHOWN_DESCENDANTS && nodes.get(j).depth() > n.depth();
                j++) {
            Node d = nodes.get(j);
            if (d.depth() > skipBelow) continue;
            skipBelow = Integer.MAX_VALUE;
            if (ProposedAction.Element.ACTION_ROLES.contains(d.role())) {
                skipBelow = d.depth();
                continue;
            }
            if (!d.name().isEmpty()) shown.add(d.name());
            shown.addAll(own(d));
        }
        ProposedAction.Element withDescendants = own.showing(shown);
        if (!withDescendants.saysNothing()) return withDescendants;
        return withDescendants.showing(groupLabel(nodes, i));
    }

    /**
     * The name and description of the nearest ancestor of {@code nodes[i]} whose subtree holds no other control
     * ({@link ProposedAction.Element#ACTION_ROLES}) and that says something; empty when an ancestor holding another
     * control comes first (a tool bar of many buttons names none of them).
     */
    static List<String> groupLabel(List<Node> nodes, int i) {
        for (int j : ancestors(nodes, i)) {
            Node a = nodes.get(j);
            int controls = 0;
            for (int k = j + 1; k < nodes.size() && nodes.get(k).depth() > a.depth(); k++) {
                if (ProposedAction.Element.ACTION_ROLES.contains(nodes.get(k).role())) controls++;
            }
            if (controls > 1) return List.of();
            List<String> label = new ArrayList<>();
            if (!a.name().isEmpty()) label.add(a.name());
            label.addAll(own(a));
            if (!new ProposedAction.Element(a.role(), "", false, false, false, label).saysNothing()) return label;
        }
        return List.of();
    }

    /**
     * The control a press of {@code n} reaches: {@code n} when it is one ({@link ProposedAction.Element#ACTION_ROLES}),
     * else its nearest ancestor that is; empty when it lies in none.
     */
    /**
     * The combo box a focused part belongs to (GTK 3 focuses a combo box's own button, named by the current choice),
     * else {@code n}: a key on that part moves the box's choice (round 17, G5: {@code key Down} chose "Delete all my
     * files" in yad's combo with nothing named).
     */
    static Node choiceHolding(ScopedTree tree, Node n) {
        List<Node> nodes = tree.nodes();
        List<Integer> up = ancestors(nodes, indexOf(nodes, n));
        for (int k = 0; k < Math.min(2, up.size()); k++) {
            Node a = nodes.get(up.get(k));
            if (a.role().equals("combo box")) return a;
        }
        return n;
    }

    static Optional<Node> control(ScopedTree tree, Node n) {
        if (ProposedAction.Element.ACTION_ROLES.contains(n.role())) return Optional.of(n);
        List<Node> nodes = tree.nodes();
        for (int j : ancestors(nodes, indexOf(nodes, n))) {
            Node a = nodes.get(j);
            if (ProposedAction.Element.ACTION_ROLES.contains(a.role())) return Optional.of(a);
        }
        return Optional.empty();
    }

    private static int indexOf(List<Node> nodes, Node n) {
        for (int i = 0; i < nodes.size(); i++) if (nodes.get(i) == n) return i;
        for (int i = 0; i < nodes.size(); i++) if (nodes.get(i).uid().equals(n.uid())) return i;
        return -1;
    }

    /**
     * The context of an element inside a dialog drawn within the window (a web page's {@code alertdialog} or
     * {@code dialog}, which the page's tree shows as an alert or dialog node at any depth): that dialog, with its
     * own name and texts, so its OK is judged by what it asks as a window dialog's is. Else {@code window}'s.
     */
    static ProposedAction.WindowContext inDialog(ScopedTree tree, Node target, ProposedAction.WindowContext window) {
        List<Node> nodes = tree.nodes();
        for (int j : ancestors(nodes, indexOf(nodes, target))) {
            Node up = nodes.get(j);
            if (up.depth() == 0 || !DIALOG_ROLES.contains(up.role())) continue;
            StringBuilder text = new StringBuilder(window.text());
            if (!up.name().isBlank()) text.append('\n').append(up.name());
            Answers answers = new Answers();
            for (int k = j + 1; k < nodes.size() && nodes.get(k).depth() > up.depth(); k++) {
                Node n = nodes.get(k);
                said(n, text);
                answers.see(n);
            }
            return new ProposedAction.WindowContext(
                            true, text.toString(), window.defaultButton(), window.accelerators())
                    .withQuestion(answers.ask(text.toString()));
        }
        // a web page's OK confirms what the page shows chosen, as a dialog's does (round 8: a page's <select>, checked
        // radio button and selected tab chose "Delete originals", and its OK was clicked with nothing named): only
        // the choices join, not the page's texts; an editable combo's words too (round 9: a datalist preset to
        // "Delete originals"), so a search box's words gate its page's buttons
        for (int j : ancestors(nodes, indexOf(nodes, target))) {
            Node up = nodes.get(j);
            if (!WEB_DOCUMENTS.contains(up.role())) continue;
            StringBuilder text = new StringBuilder();
            boolean unread = false;
            for (int k = j + 1; k < nodes.size() && nodes.get(k).depth() > up.depth(); k++) {
                Node n = nodes.get(k);
                if (!chosen(n)) continue;
                // a <select> whose value Chromium gives as U+FFFC, its options not in the tree: a choice not read
                if (n.role().equals("combo box") && choice(n).equals(n.name()) && !chosenBelow(nodes, k)) {
                    unread = true;
                    continue;
                }
                String c = choice(n);
                text.append('\n').append(c.isBlank() && ROWS.contains(n.role()) ? rowAfter(nodes, k) : c);
            }
            if (text.toString().isBlank() && !unread) return window;
            // a page that shows a choice is no dialog that asks one thing: its buttons are judged by their words
            return new ProposedAction.WindowContext(
                            true, window.text() + text, window.defaultButton(), window.accelerators())
                    .withUnreadChoice(unread)
                    .withAsks(false);
        }
        return window;
    }

    /**
     * Whether a dialog's node sets something its answer confirms: a field, a box, a list, a choice. A link and a text to
     * read are not (round 12: a "Learn more" link and a read-only text view took a question out of the rule).
     */
    private static boolean settable(Node n) {
        if (n.editable()) return true;
        if (n.role().equals("link") || ProposedAction.Element.textRole(n.role())) return false;
        return Roles.interactive(n.role());
    }

    /** What a dialog's nodes say about whether it asks a question: its buttons, and whether anything else sets something. */
    private static final class Answers {
        private int buttons;
        private String lone = "";
        private boolean setsSomething;

        void see(Node n) {
            if (n.role().equals("push button")) {
                buttons++;
                lone = n.name();
            } else if (settable(n)) setsSomething = true;
        }

        /**
         * Nothing is set, and the buttons ask: two or more, or one that says anything but an acknowledgement ({@code OK}
         * under "Saved." acknowledges; {@code Continue} under "Shred all 3 files?" answers, round 12), or one whose label
         * the dialog's {@code text} names ({@code OK} under "Pressing OK terminates the production server.", round 13:
         * the text says what the button does).
         */
        boolean ask(String text) {
            return !setsSomething
                    && (buttons >= 2
                            || buttons == 1
                                    && (!ConsequentialWords.acknowledging(lone) || Consequential.echoes(lone, text)));
        }
    }

    /** Whether a node under the one at {@code i} shows itself chosen (a combo's selected option). */
    private static boolean chosenBelow(List<Node> nodes, int i) {
        for (int k = i + 1;
                k < nodes.size() && nodes.get(k).depth() > nodes.get(i).depth();
                k++) {
            Node n = nodes.get(k);
            if (n.states().contains("selected") || n.states().contains("checked")) return true;
        }
        return false;
    }

    /** The roles of a web page's document in the tree. */
    private static final Set<String> WEB_DOCUMENTS = Set.of("document web", "document frame");

    /**
     * Whether {@code n} shows what the dialog's OK confirms: a selected or checked element (a list's row, a radio
     * button), a list's focused row or cell, or a combo box, whose name or value is its current choice (round 6: {@code key Down} chose "Delete all
     * files" in a list, then OK confirmed it with nothing named). Its text joins the dialog's.
     */
    private static boolean chosen(Node n) {
        return n.role().equals("combo box")
                || n.states().contains("selected")
                || n.states().contains("checked")
                // round 10: a toggle button shown pressed (or mixed), a spin button's or slider's value
                || n.states().contains("pressed")
                || n.states().contains("indeterminate")
                || VALUED.contains(n.role())
                || n.focused() && ROWS.contains(n.role())
                // round 10, measured on Chromium 143: a menu button named by its value (aria-haspopup: has-popup), a
                // link or item marked current (aria-current: active), a read-only field's value
                || n.states().contains("has-popup") && BUTTONS.contains(n.role())
                || n.states().contains("active") && CURRENT.contains(n.role())
                || readOnlyValue(n);
    }

    /** Buttons whose name a page may make their value (a menu button over a list box). */
    private static final Set<String> BUTTONS = Set.of("push button", "toggle button", "button");

    /** Roles a page marks current ({@code aria-current}), which Chromium reports as the state {@code active}. */
    private static final Set<String> CURRENT = Set.of("link", "list item", "page tab", "tree item");

    /** A field that shows a value the page set and the person cannot change ({@code <input readonly>}). */
    private static boolean readOnlyValue(Node n) {
        return n.states().contains("read-only")
                && ProposedAction.Element.textRole(n.role())
                && n.value() != null
                && !n.value().isBlank();
    }

    /**
     * Roles whose value is their current choice: a spin button's, slider's, scroll bar's or meter's value text
     * ({@code aria-valuetext}; round 11: a scroll bar and a meter carried "Delete originals").
     */
    private static final Set<String> VALUED =
            Set.of("spin button", "slider", "scroll bar", "level bar", "progress bar");

    /**
     * What {@code n} shows chosen: a combo box's value where it has one (Qt and web pages name a combo by its label and
     * give the choice as its value), else its name (GTK 3 names it by its choice); any other element's name.
     */
    private static String choice(Node n) {
        // Chromium gives a <select>'s value as U+FFFC, the option being a child (whose selected state is read too)
        String value = n.value() == null ? "" : n.value().replace("\uFFFC", "");
        if ((n.role().equals("combo box") || VALUED.contains(n.role()) || readOnlyValue(n)) && !value.isBlank())
            return value;
        return n.name();
    }

    /** Each node's parent index (the last node before it one level up), -1 for a root. */
    private static int[] parents(List<Node> nodes) {
        int[] parent = new int[nodes.size()];
        int[] last = new int[1 + nodes.stream().mapToInt(Node::depth).max().orElse(0)];
        java.util.Arrays.fill(last, -1);
        for (int i = 0; i < nodes.size(); i++) {
            int d = nodes.get(i).depth();
            parent[i] = d == 0 ? -1 : last[d - 1];
            last[d] = i;
        }
        return parent;
    }

    /** The lists (their indices) that show one of their rows chosen. */
    private static Set<Integer> listsWithAChosenRow(List<Node> nodes, int[] parent) {
        Set<Integer> out = new java.util.HashSet<>();
        for (int i = 0; i < nodes.size(); i++)
            if (ROWS.contains(nodes.get(i).role()) && chosen(nodes.get(i))) out.add(parent[i]);
        return out;
    }

    /**
     * Adds what {@code n} shows a person to a window's words. Every text the window shows counts — a label, a heading,
     * a column header, a status or progress text, a read-only field's or text view's value, a row that cannot be
     * chosen — with three exceptions, each a fact the tree gives: a control's own label (a button's name answers the
     * dialog, it does not say what the dialog does: else a Delete button would gate its Cancel), a field's value the
     * person or the model can write now (typed text is no statement of the window's; a disabled field's is), and the
     * rows of a list that shows one of them chosen, but for that one (its alternatives: GTK 3's Open dialog lists the
     * place "Trash" in its sidebar, and every button in it was "in a dialog about delete"), whose words the chosen row
     * brings (below). A list with no row chosen, or whose rows cannot be chosen, says what its rows say — but in a
     * file chooser (its role), whose lists are places and files to choose from: GTK 3's sidebar shows none chosen.
     * Until 2026-12-07 only labels and a few text roles counted, and a reviewer got OK pressed under words in a column
     * header, a text view, a read-only field and a list that offers no choice.
     */
    private static void said(Node n, StringBuilder text) {
        boolean control = Roles.interactive(n.role()) && !ROWS.contains(n.role());
        if (!control && !n.name().isBlank()) text.append('\n').append(n.name());
        if (!control && !n.text().isBlank()) text.append('\n').append(n.text());
        if (n.value() != null && !n.value().isBlank() && !(n.editable() && n.enabled()) && !Roles.password(n.role()))
            text.append('\n').append(n.value());
    }

    /**
     * What a chosen row or cell that shows no name of its own stands for: the names of the cells after it in its row
     * (round 8: zenity's and yad's radio and check lists put the checked state on an unnamed toggle cell before the
     * row's text). A table that shows its columns' headers gives the row's length, and a blank cell inside the row is
     * skipped (a reviewer put one between the toggle and "Delete the originals"); without headers, the row ends at
     * the next unnamed cell.
     */
    private static String rowAfter(List<Node> nodes, int i) {
        StringBuilder out = new StringBuilder();
        Node cell = nodes.get(i);
        int columns = columns(nodes, i);
        int taken = 1;
        for (int k = i + 1; k < nodes.size(); k++) {
            Node n = nodes.get(k);
            if (n.depth() < cell.depth()) break;
            if (n.depth() > cell.depth()) continue;
            if (!ROWS.contains(n.role())) break;
            if (columns > 0 ? taken++ >= columns : n.name().isBlank()) break;
            if (!n.name().isBlank()) out.append(' ').append(n.name());
        }
        return out.toString().strip();
    }

    /** The number of column headers among the siblings of the cell at {@code i}, 0 when its table shows none. */
    private static int columns(List<Node> nodes, int i) {
        int depth = nodes.get(i).depth();
        int start = i;
        while (start > 0 && nodes.get(start - 1).depth() >= depth) start--;
        int n = 0;
        for (int k = start; k < nodes.size() && nodes.get(k).depth() >= depth; k++)
            if (nodes.get(k).depth() == depth && nodes.get(k).role().endsWith("column header")) n++;
        return n;
    }

    private static final Set<String> ROWS = ProposedAction.Element.ROW_ROLES;

    /** At most this many controls and no menu bar: a window that asks one thing (GTK dialogs often read as frames). */
    static final int DIALOG_LIKE_CONTROLS = 15;

    /**
     * Whether the window is a dialog, its own text, and its default button. A dialog: its root role is a
     * dialog's, it is transient-for or modal, or it is dialog-like — no menu bar and at most
     * {@value #DIALOG_LIKE_CONTROLS} controls (yad and many GTK dialogs report a frame).
     */
    static ProposedAction.WindowContext context(ScopedTree tree, WindowInfo window) {
        return context(tree, window, window == null ? "" : window.title());
    }

    /** {@link #context(ScopedTree, WindowInfo)} with the window's title given ({@code window} may be null). */
    private static ProposedAction.WindowContext context(ScopedTree tree, WindowInfo window, String title) {
        boolean dialog = window != null && (window.transientFor() != 0 || window.modal());
        boolean menuBar = false;
        boolean textArea = false;
        Answers answers = new Answers();
        int controls = 0;
        StringBuilder text = new StringBuilder(title);
        Optional<ProposedAction.Element> dflt = Optional.empty();
        int combo = -1; // the depth of the combo box the nodes are inside of, -1 outside any
        int row = -1; // the depth of the list's row the nodes are inside of, -1 outside any
        boolean rowSays = false; // whether that row's texts are the window's words
        List<Node> nodes = tree.nodes();
        int[] parent = parents(nodes);
        Set<Integer> offering = listsWithAChosenRow(nodes, parent);
        int chooser = -1; // the depth of the file chooser the nodes are inside of, -1 outside any
        for (int i = 0; i < nodes.size(); i++) {
            Node n = nodes.get(i);
            if (row >= 0 && n.depth() <= row) row = -1;
            if (chooser >= 0 && n.depth() <= chooser) chooser = -1;
            if (chooser < 0 && n.role().equals("file chooser")) chooser = n.depth();
            if (row < 0 && ROWS.contains(n.role())) {
                row = n.depth();
                // a row is one of its list's alternatives when it can be chosen and another one is, or when it is a
                // place or a file a file chooser lists (what its Open or Save does is open or save the one chosen)
                rowSays =
                        chosen(n) || !n.states().contains("selectable") || !offering.contains(parent[i]) && chooser < 0;
            }
            if (n.depth() == 0 && DIALOG_ROLES.contains(n.role())) dialog = true;
            if (n.role().equals("menu bar")) menuBar = true;
            // a list's rows are its content, not the window's controls (round 11: a yad list of 20 files with a Shred
            // button was no dialog by count)
            if (Roles.interactive(n.role()) && !ROWS.contains(n.role())) controls++;
            answers.see(n);
            if (n.editable() && ProposedAction.Element.textRole(n.role()) && !n.singleLine()) textArea = true;
            if (row < 0 || rowSays) said(n, text);
            if (chosen(n)) {
                String c = choice(n);
                text.append('\n').append(c.isBlank() && ROWS.contains(n.role()) ? rowAfter(nodes, i) : c);
            }
            if (combo >= 0 && n.depth() <= combo) combo = -1;
            // an editable combo's entry holds its choice, whatever the combo's name (round 7: yad's CBE field)
            if (combo >= 0 && n.value() != null && !n.value().isBlank())
                text.append('\n').append(n.value());
            if (n.role().equals("combo box")) combo = n.depth();
            if (n.isDefault() && dflt.isEmpty()) dflt = Optional.of(element(tree, n));
        }
        dialog |= !menuBar && controls > 0 && controls <= DIALOG_LIKE_CONTROLS;
        // a dialog whose tree marks no default button: Enter (or a click that activates, as on a row) may press any of
        // its buttons (round 9: a click on a row of yad's list pressed Send, which the tree did not mark)
        if (dialog && dflt.isEmpty()) {
            List<String> named = nodes.stream()
                    .filter(n -> n.role().equals("push button") && !n.name().isBlank())
                    .map(Node::name)
                    .toList();
            if (!named.isEmpty())
                dflt = Optional.of(new ProposedAction.Element(
                        "push button", "any of " + String.join(", ", named), false, false, false));
        }
        // it asks one thing where its buttons answer it: few controls and no text area to write in (not a Preferences
        // dialog, not an editor whose window has no menu bar)
        boolean asks = dialog && !textArea && controls <= DIALOG_LIKE_CONTROLS;
        // a question: nothing but text and two buttons or more (round 11: Yes to "Shred all 3 files?")
        boolean question = asks && answers.ask(text.toString());
        return new ProposedAction.WindowContext(dialog, dialog ? text.toString() : "", dflt)
                .withAsks(asks)
                .withQuestion(question);
    }
}
