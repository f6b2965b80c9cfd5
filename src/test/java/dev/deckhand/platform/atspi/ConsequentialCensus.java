package dev.deckhand.platform.atspi;

import dev.deckhand.grant.Consequential;
import dev.deckhand.grant.ConsequentialWords;
import dev.deckhand.grant.ProposedAction;
import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.guard.Proposals;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * What the consequential gate makes of every element of the installed apps' main windows, read as Deckhand reads
 * them (the bridge's walk, the guard's {@link Proposals}, the gate's {@link Consequential}): for a click on each
 * showing element, whether it is {@code unidentified} (a control whose purpose the tree does not say at all) or
 * gated by a word, with the path to each unidentified one. The false-positive figures of docs/security.md come from
 * it: {@code scripts/desktop.sh run -- java -cp ... dev.deckhand.platform.atspi.ConsequentialCensus [APP...]}
 * (apps: mousepad pluma galculator gnome-calculator gnome-text-editor featherpad abiword writer calc yad chromium).
 */
public final class ConsequentialCensus {

    private ConsequentialCensus() {}

    record App(String name, List<String> command, Map<String, String> env, Predicate<String> title) {}

    public static void main(String[] args) throws Exception {
        TestApp.requireDesktop();
        Path dir = Files.createTempDirectory("deckhand-census");
        PageServer server =
                PageServer.serve("<!doctype html><html><head><title>Census Page</title></head><body><h1>Orders</h1>"
                        + "<p>Your orders of this month.</p><a href=\"#more\">More</a> <button>Open</button>"
                        + "<label>Search <input></label><button title=\"Delete order\">&#x1F5D1;</button>"
                        + "<button aria-label=\"Close\"><svg width=\"16\" height=\"16\"><path d=\"M2 2l12 12\" stroke=\"black\"/>"
                        + "</svg></button></body></html>");
        String url = server.url("/census.html");
        Map<String, String> gtk3Office = Map.of("SAL_USE_VCLPLUGIN", "gtk3");
        String profile = "-env:UserInstallation=" + dir.resolve("lo-profile").toUri();
        List<App> apps = List.of(
                new App("mousepad", List.of("mousepad"), Map.of(), t -> t.endsWith("Mousepad")),
                new App("pluma", List.of("pluma"), Map.of(), t -> t.endsWith("Pluma")),
                new App("galculator", List.of("galculator"), Map.of(), "galculator"::equals),
                new App("gnome-calculator", List.of("gnome-calculator"), Map.of(), "Calculator"::equals),
                new App("gnome-text-editor", List.of("gnome-text-editor"), Map.of(), t -> t.endsWith("Text Editor")),
                new App("featherpad", List.of("featherpad"), Map.of(), t -> t.startsWith("Untitled")),
                new App("abiword", List.of("abiword"), Map.of(), t -> t.startsWith("Untitled")),
                new App(
                        "writer",
                        List.of("soffice", "--writer", "--nologo", "--norestore", profile),
                        gtk3Office,
                        t -> t.contains("LibreOffice Writer")),
                new App(
                        "calc",
                        List.of("soffice", "--calc", "--nologo", "--norestore", profile),
                        gtk3Office,
                        t -> t.contains("LibreOffice Calc")),
                new App(
                        "yad",
                        List.of(
                                "yad",
                                "--form",
                                "--title=Census",
                                "--text=Fill in the form.",
                                "--field=Name",
                                "--field=Notify:CHK",
                                "--button=Save:0",
                                "--button=Cancel:1"),
                        Map.of(),
                        "Census"::equals),
                new App(
                        "chromium",
                        List.of(
                                "chromium",
                                "--no-sandbox",
                                "--user-data-dir=" + dir.resolve("chromium"),
                                "--force-renderer-accessibility",
                                "--no-first-run",
                                "--disable-gpu",
                                "--disable-sync",
                                "--no-default-browser-check",
                                url),
                        Map.of(),
                        t -> t.startsWith("Census Page")));
        Set<String> only = Set.of(args);
        DesktopFacts facts = new DesktopFacts(
                false, false, Set.of(), List.of(), Optional.empty(), 0, Optional.empty(), List.of(), Optional.empty());
        ConsequentialWords words = ConsequentialWords.defaults();
        try (AtspiBridge bridge = AtspiBridge.start()) {
            for (App app : apps) {
                if (!only.isEmpty() && !only.contains(app.name())) continue;
                Files.createDirectories(dir.resolve("lo-profile/user"));
                try (TestApp running = TestApp.launch(app.command(), app.env())) {
                    String title;
                    int pid;
                    try {
                        if (app.name().equals("writer") || app.name().equals("calc")) {
                            title = awaitOffice(bridge, running, app.title());
                            pid = TestApp.calcPid(running);
                        } else {
                            title = running.awaitWindow(bridge, app.title(), 60_000);
                            pid = running.pid();
                        }
                    } catch (AssertionError e) {
                        System.out.println("== " + app.name() + ": no window (" + e.getMessage() + ")");
                        continue;
                    }
                    // a window fills in after it maps (LibreOffice's toolbars and sidebar): read it once it holds still
                    ScopedTree tree = null;
                    for (int i = 0; i < 20; i++) {
                        Thread.sleep(2000);
                        ScopedTree again;
                        try {
                            again = bridge.snapshot(pid, title, running.geometry(title), 1, 1, true);
                        } catch (dev.deckhand.grant.RefusedException busy) {
                            continue; // a busy app (LibreOffice while it starts, on a loaded machine): read it again
                        }
                        boolean still = tree != null
                                && again.nodes().size() == tree.nodes().size();
                        tree = again;
                        if (still) break;
                    }
                    if (tree == null) {
                        System.out.println("== " + app.name() + ": never answered");
                        continue;
                    }
                    report(app.name(), tree, facts, words);
                }
            }
        } finally {
            server.close();
        }
    }

    private static String awaitOffice(AtspiBridge bridge, TestApp launcher, Predicate<String> title) throws Exception {
        long deadline = System.nanoTime() + 90_000_000_000L;
        while (System.nanoTime() < deadline) {
            int pid = TestApp.calcPid(launcher);
            if (pid > 0) {
                try {
                    for (String t : bridge.windowTitles(pid)) if (title.test(t)) return t;
                } catch (RuntimeException notYet) {
                    // not on the bus yet
                }
            }
            Thread.sleep(500);
        }
        throw new AssertionError("no LibreOffice window within 90 s");
    }

    private static void report(String app, ScopedTree tree, DesktopFacts facts, ConsequentialWords words) {
        int showing = 0;
        int controls = 0;
        int allControls = 0;
        List<String> hiddenUnidentified = new ArrayList<>();
        List<String> byShownText = new ArrayList<>();
        java.util.Set<String> wordless = new java.util.TreeSet<>();
        List<String> unidentifiedControls = new ArrayList<>();
        List<String> unidentifiedOther = new ArrayList<>();
        Map<String, Integer> gated = new TreeMap<>();
        List<String> gatedControls = new ArrayList<>();
        List<Node> nodes = tree.nodes();
        for (Node n : nodes) {
            ProposedAction p = Proposals.propose(new Action.Click(n.uid()), tree, tree.windowId(), null, null, facts);
            ProposedAction.Element e = p.element().orElseThrow();
            boolean control = ProposedAction.Element.ACTION_ROLES.contains(n.role());
            if (control && !e.name().isBlank() && e.name().codePoints().noneMatch(Character::isLetterOrDigit)) {
                StringBuilder cats = new StringBuilder();
                e.name().codePoints().forEach(c -> cats.append(Character.getType(c))
                        .append(','));
                wordless.add("'" + e.name() + "' (types " + cats + ")");
            }
            if (control) {
                // every control, menus' hidden items included: what its shown texts gate beyond its name
                allControls++;
                Set<String> all = Consequential.classify(p, words)
                        .map(Consequential.Match::categories)
                        .orElse(Set.of());
                ProposedAction byName = ProposedAction.on(
                                p.kind(),
                                1,
                                tree.windowId(),
                                new ProposedAction.Element(
                                        e.role(), e.name(), false, e.compose(), e.editable(), List.of(" ")))
                        .withContext(p.context());
                Set<String> named = Consequential.classify(byName, words)
                        .map(Consequential.Match::categories)
                        .orElse(Set.of());
                Set<String> more = new java.util.TreeSet<>(all);
                more.removeAll(named);
                more.remove(Consequential.UNIDENTIFIED);
                if (!more.isEmpty())
                    byShownText.add(n.role() + " '" + n.name() + "' showing " + e.shown() + " " + more);
                if (!n.showing() && all.contains(Consequential.UNIDENTIFIED)) hiddenUnidentified.add(path(nodes, n));
            }
            if (!n.showing()) continue;
            showing++;
            if (control) controls++;
            Set<String> categories = Consequential.classify(p, words)
                    .map(Consequential.Match::categories)
                    .orElse(Set.of());
            if (categories.contains(Consequential.UNIDENTIFIED)) {
                if (control) unidentifiedControls.add(path(nodes, n));
                else if (e.role().equals(n.role())) unidentifiedOther.add(path(nodes, n));
            }
            if (control) {
                for (String c : categories) if (!c.equals(Consequential.UNIDENTIFIED)) gated.merge(c, 1, Integer::sum);
                if (!categories.isEmpty() && !categories.contains(Consequential.UNIDENTIFIED)) {
                    gatedControls.add(n.role() + " '" + n.name() + "'"
                            + (e.shown().isEmpty() ? "" : " showing " + e.shown()) + " " + categories);
                }
            }
        }
        System.out.printf(
                Locale.ROOT,
                "== %s: %d nodes (%d showing), %d controls showing: %d unidentified; %d other"
                        + " elements a click by uid calls unidentified; controls gated by a word: %s%n",
                app,
                nodes.size(),
                showing,
                controls,
                unidentifiedControls.size(),
                unidentifiedOther.size(),
                gated);
        System.out.printf(
                Locale.ROOT,
                "  all %d controls, hidden ones included: %d more unidentified while hidden; %d gated"
                        + " by a shown text beyond their name%n",
                allControls,
                hiddenUnidentified.size(),
                byShownText.size());
        System.out.println("  controls named without a letter or digit: " + wordless);
        hiddenUnidentified.forEach(l -> System.out.println("  hidden control " + l));
        byShownText.forEach(l -> System.out.println("  by shown text " + l));
        unidentifiedControls.forEach(l -> System.out.println("  control " + l));
        gatedControls.forEach(l -> System.out.println("  gated " + l));
        Map<String, Integer> otherRoles = new TreeMap<>();
        unidentifiedOther.forEach(l -> otherRoles.merge(l.substring(l.lastIndexOf('>') + 2), 1, Integer::sum));
        System.out.println("  other, by role: " + otherRoles);
    }

    /** The roles and names from the root to {@code n}. */
    private static String path(List<Node> nodes, Node n) {
        List<String> parts = new ArrayList<>();
        int i = nodes.indexOf(n);
        int depth = n.depth();
        parts.add(0, n.role());
        for (int j = i - 1; j >= 0 && depth > 0; j--) {
            Node a = nodes.get(j);
            if (a.depth() >= depth) continue;
            depth = a.depth();
            parts.add(
                    0,
                    a.role()
                            + (a.name().isEmpty() ? "" : " '" + a.name() + "'")
                            + (a.description().isEmpty() ? "" : " (desc '" + a.description() + "')"));
        }
        return String.join(" > ", parts);
    }
}
