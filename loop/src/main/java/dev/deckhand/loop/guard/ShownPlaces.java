package dev.deckhand.loop.guard;

import dev.deckhand.grant.DeniedPlaces;
import dev.deckhand.grant.ProposedAction;
import dev.deckhand.grant.Refusal;
import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.action.ElementAction;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Where file dialogs, address bars and {@code file://} pages point, read from the tree the loop observes, and
 * whether that — or an action about to go there — reaches a {@link DeniedPlaces denied place}. Pure.
 *
 * <p>What the tree tells: a <b>file chooser</b> is the subtree of an element with the {@code file chooser}
 * role; its folder is its path bar — sibling toggle buttons of which exactly one is checked, listed from the
 * deepest folder to the file-system root as GTK does, the checked one being the folder shown. While its
 * location entry is open GTK hides the path bar, so the caller remembers the last folder it read. Relative
 * names in a chooser (its entries, its rows, typed text) resolve against that folder, or against {@code /}
 * when none was ever read, so that their own hidden components still count. <b>Window titles</b> (the names
 * of the tree's top-level elements) are read for paths wherever they start; a <b>single-line entry</b> whose
 * whole text starts as a path (an address bar holding a {@code file://} URL) is read as one.
 *
 * <p>Refusals are {@code DENY_PATH}; the detail names the rule and the kind of place, never the text.
 */
public final class ShownPlaces {

    static final String CHOOSER = "file chooser";
    static final String RULE = "file dialogs, address bars and file:// pages never reach Deckhand's config directory, "
            + "the verifier's denied set or hidden files";

    private ShownPlaces() {}

    /** A file chooser in a tree: its nodes {@code [from, to)}, and its folder when its path bar shows one. */
    record Chooser(int from, int to, Optional<Path> folder) {
        boolean holds(int i) {
            return i >= from && i < to;
        }
    }

    /**
     * The outermost file choosers of {@code tree}, in document order: a {@code file chooser} (GTK), and a dialog with
     * no such node inside whose combo box is named with an absolute path — Qt's file dialog, whose "Look in:" combo
     * shows its folder (round 5: a name typed relative to it was judged by its own text).
     */
    static List<Chooser> choosers(ScopedTree tree) {
        List<Node> nodes = tree.nodes();
        List<Chooser> out = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            String role = nodes.get(i).role();
            if (CHOOSER.equals(role)) {
                int end = end(nodes, i);
                out.add(new Chooser(i, end, pathBar(nodes, i, end)));
                i = end - 1;
            } else if (role.equals("dialog")) {
                int end = end(nodes, i);
                Optional<Path> folder = pathCombo(nodes, i, end);
                if (folder.isPresent()) {
                    out.add(new Chooser(i, end, folder));
                    i = end - 1;
                }
            }
        }
        return out;
    }

    /** The folder a combo box inside {@code nodes[from, to)} is named with, when none of them is a file chooser. */
    private static Optional<Path> pathCombo(List<Node> nodes, int from, int to) {
        Optional<Path> folder = Optional.empty();
        for (int i = from; i < to; i++) {
            Node n = nodes.get(i);
            if (CHOOSER.equals(n.role())) return Optional.empty();
            if (folder.isEmpty() && n.role().equals("combo box") && n.name().startsWith("/")) {
                try {
                    folder = Optional.of(Path.of(n.name()).normalize());
                } catch (InvalidPathException e) {
                    // not a path after all
                }
            }
        }
        return folder;
    }

    /** The index after the subtree of {@code nodes[i]}. */
    static int end(List<Node> nodes, int i) {
        int depth = nodes.get(i).depth();
        int j = i + 1;
        while (j < nodes.size() && nodes.get(j).depth() > depth) j++;
        return j;
    }

    /**
     * The folder a path bar inside {@code nodes[from, to)} shows: the first group of sibling toggle buttons
     * with exactly one checked, read from the last (the root) back to the checked one.
     */
    static Optional<Path> pathBar(List<Node> nodes, int from, int to) {
        for (int i = from; i < to; i++) {
            Node n = nodes.get(i);
            if (!n.role().equals("toggle button")) continue;
            List<Node> group = new ArrayList<>();
            int depth = n.depth();
            int j = i;
            for (; j < to && nodes.get(j).depth() >= depth; j++) {
                Node s = nodes.get(j);
                if (s.depth() == depth && s.role().equals("toggle button")) group.add(s);
            }
            long checked = group.stream().filter(ShownPlaces::checked).count();
            if (checked == 1) {
                int c = 0;
                while (!checked(group.get(c))) c++;
                try {
                    Path folder = Path.of("/");
                    for (int k = group.size() - 2; k >= c; k--) {
                        String name = group.get(k).name();
                        if (name.isEmpty() || name.contains("/")) return Optional.empty();
                        folder = folder.resolve(name);
                    }
                    return Optional.of(folder);
                } catch (InvalidPathException e) {
                    return Optional.empty();
                }
            }
            i = j - 1;
        }
        return Optional.empty();
    }

    private static boolean checked(Node n) {
        return n.states().contains("checked");
    }

    /** The folder of the first chooser in {@code tree} whose path bar shows one. */
    public static Optional<Path> chooserFolder(ScopedTree tree) {
        return choosers(tree).stream()
                .map(Chooser::folder)
                .flatMap(Optional::stream)
                .findFirst();
    }

    /**
     * Whether {@code tree} already shows a denied place: a window title naming a path in one, a file
     * chooser whose folder is in one or whose entry names a path in one, a single-line entry (an address
     * bar) holding a path in one. {@code remembered}: the last chooser folder read in this run.
     */
    public static Optional<Refusal> shown(ScopedTree tree, DeniedPlaces places, Optional<Path> remembered) {
        List<Node> nodes = tree.nodes();
        for (Node n : nodes) {
            if (n.depth() != 0) continue;
            Optional<String> hit = places.inText(n.name(), Optional.empty());
            if (hit.isPresent()) return refuse("a window title names a path in", hit.get());
        }
        List<Chooser> choosers = choosers(tree);
        for (Chooser c : choosers) {
            if (c.folder().isPresent()) {
                Optional<String> hit = places.kindOf(c.folder().get());
                if (hit.isPresent()) return refuse("a file chooser shows a folder in", hit.get());
            }
            Optional<Path> base = Optional.of(c.folder().or(() -> remembered).orElse(Path.of("/")));
            for (int i = c.from(); i < c.to(); i++) {
                Node n = nodes.get(i);
                if (!n.editable() || n.value() == null) continue;
                Optional<String> hit = places.inText(n.value(), base);
                if (hit.isPresent()) return refuse("a file chooser's entry names a path in", hit.get());
            }
        }
        for (int i = 0; i < nodes.size(); i++) {
            Node n = nodes.get(i);
            if (inChooser(choosers, i) || !addressLike(n, places)) continue;
            Optional<String> hit = places.inText(n.value().strip(), Optional.empty());
            if (hit.isPresent()) return refuse("an address bar holds a path in", hit.get());
        }
        return Optional.empty();
    }

    /** Roles of a web document, and of the frame that holds one inside a page. */
    private static final Set<String> DOCUMENTS = Set.of("document web", "document frame", "internal frame");

    /**
     * A local page ({@code file://}, {@code host} {@link dev.deckhand.grant.Facts#LOCAL_DOCUMENT}) that frames another
     * document: Deckhand reads the tab's own address, not a frame's, and a local page may frame any file the browser
     * can read (round 13's L1: a page framing Deckhand's {@code policy.json} and a hidden file put their text in the
     * model's observation). The frame's place cannot be judged, so the page is refused, as a tab whose host is unknown.
     * The tab's {@code host} is read only for a tree that shows a document inside a document.
     */
    public static Optional<Refusal> framedLocalPage(ScopedTree tree, Supplier<Optional<String>> host) {
        if (!framesDocument(tree)
                || !host.get()
                        .map(h -> h.equalsIgnoreCase(dev.deckhand.grant.Facts.LOCAL_DOCUMENT))
                        .orElse(false)) return Optional.empty();
        return Optional.of(Refusal.denyHost("the tab shows a local document (file://) that frames another"
                + " document, whose address Deckhand does not read: it may be a file in a denied place"));
    }

    /** Whether {@code tree} shows a document (or a frame) inside a document. */
    private static boolean framesDocument(ScopedTree tree) {
        int inside = -1; // the depth of the document the nodes are inside of, -1 outside any
        for (Node n : tree.nodes()) {
            if (inside >= 0 && n.depth() <= inside) inside = -1;
            if (!DOCUMENTS.contains(n.role())) continue;
            if (inside >= 0) return true;
            inside = n.depth();
        }
        return false;
    }

    /**
     * Whether {@code action} would type, paste, choose or open a path in a denied place: its text (with what
     * the target field already holds), the name or value of the element it lands on — in a file chooser read
     * relative to the chooser's folder — or the option it selects. {@code proposed} names the element keys and
     * typed text go to (the focus read now); {@code remembered} is the last chooser folder read in this run.
     */
    public static Optional<Refusal> inAction(
            Action action, ProposedAction proposed, ScopedTree tree, DeniedPlaces places, Optional<Path> remembered) {
        List<Node> nodes = tree.nodes();
        List<Chooser> choosers = choosers(tree);
        Set<Integer> targets = new LinkedHashSet<>();
        if (action instanceof ElementAction e) {
            for (int i = 0; i < nodes.size(); i++) {
                if (nodes.get(i).uid().equals(e.uid())) targets.add(i);
            }
        } else {
            proposed.element().ifPresent(el -> {
                for (int i = 0; i < nodes.size(); i++) {
                    Node n = nodes.get(i);
                    if (n.role().equals(el.role())
                            && n.name().equals(el.name())
                            && (n.focused() || !el.name().isEmpty())) {
                        targets.add(i);
                    }
                }
            });
            if (action instanceof Action.Type || action instanceof Action.Key) {
                for (int i = 0; i < nodes.size(); i++) {
                    if (nodes.get(i).focused()) targets.add(i);
                }
            }
        }
        String verb = verb(action);
        // GTK does not always show a chooser's location entry in the tree at once: text or Enter going to a
        // focus the tree does not show, while a chooser is open, cannot be judged, so it does not go
        if (targets.isEmpty() && !choosers.isEmpty() && completesAPath(action)) {
            return Optional.of(Refusal.denyPath(verb + " goes to a field the tree does not show while a file chooser is"
                    + " open, so the path it makes cannot be judged (" + RULE + ")"));
        }
        Optional<String> text = typed(action);
        if (text.isPresent()) {
            Optional<String> hit = places.inText(text.get(), Optional.empty());
            if (hit.isPresent()) return refuse(verb + " names a path in", hit.get());
        }
        for (int i : targets) {
            Node n = nodes.get(i);
            Optional<Chooser> in = choosers.stream().filter(c -> c.holds(i)).findFirst();
            Optional<Path> base = in.map(c -> c.folder().or(() -> remembered).orElse(Path.of("/")));
            if (in.isPresent() && in.get().folder().isPresent()) {
                Optional<String> hit = places.kindOf(in.get().folder().get());
                if (hit.isPresent()) return refuse(verb + " acts in a file chooser showing a folder in", hit.get());
            }
            List<String> read = new ArrayList<>();
            boolean field = in.isPresent() || n.editable() && n.singleLine();
            if (text.isPresent()) {
                read.add(text.get());
                // typed text lands beside what the field holds ("/home/ann/" then "deckhand-home/owner-token"); in a
                // text field of many lines, where the caret is not read, at its end when what it holds names no path
                // already (round 20's D4: "/tmp/" and a "." written by an input method's Unicode entry, then "canary")
                if (!(action instanceof Action.SetText)
                        && n.value() != null
                        && (field
                                || n.editable()
                                        && places.inText(n.value(), base).isEmpty())) {
                    read.add(n.value() + text.get());
                }
            } else {
                // in a chooser a row reads as its cells: the model may name the row or its name cell
                int last = in.isPresent() ? end(nodes, i) : i + 1;
                for (int j = i; j < last; j++) read.add(nodes.get(j).name());
                if (n.value() != null && (in.isPresent() || addressLike(n, places))) read.add(n.value());
            }
            for (String t : read) {
                Optional<String> hit = places.inText(t, base);
                if (hit.isPresent()) return refuse(verb + " names a path in", hit.get());
            }
        }
        return Optional.empty();
    }

    /** Typed text, and keys that write text, paste or confirm (Enter): what completes or opens a path. */
    private static boolean completesAPath(Action action) {
        if (action instanceof Action.Type) return true;
        if (!(action instanceof Action.Key k)) return false;
        String key = k.chord().toString();
        return k.chord().editsText() || k.chord().paste() || key.endsWith("Enter") || key.endsWith("Return");
    }

    /** The text an action writes: typed, set, or the option it selects. */
    private static Optional<String> typed(Action action) {
        if (action instanceof Action.Type t) return Optional.of(t.text());
        if (action instanceof Action.SetText s) return Optional.of(s.text());
        if (action instanceof Action.Select s) return Optional.of(s.option());
        return Optional.empty();
    }

    private static String verb(Action action) {
        if (action instanceof Action.Type) return "typed text";
        if (action instanceof Action.SetText) return "set_text";
        if (action instanceof Action.Select) return "the selected option";
        if (action instanceof Action.Key k) return "key " + k.chord() + " on an element that";
        return action.kind() + " on an element that";
    }

    /** A single-line editable whose whole text starts as a path: an address bar, a location field. */
    private static boolean addressLike(Node n, DeniedPlaces places) {
        return n.editable() && n.singleLine() && n.value() != null && places.namesPath(n.value());
    }

    private static boolean inChooser(List<Chooser> choosers, int i) {
        for (Chooser c : choosers) {
            if (c.holds(i)) return true;
        }
        return false;
    }

    private static Optional<Refusal> refuse(String what, String kind) {
        return Optional.of(Refusal.denyPath(what + " " + kind + ", a denied place (" + RULE + ")"));
    }
}
