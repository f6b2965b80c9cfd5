package dev.deckhand.grant.tools;

import dev.deckhand.grant.ConsequentialWords;
import dev.deckhand.grant.Labels;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Writes {@code consequential-words.tsv}: the translations of the English consequential words that the
 * desktop's own packages ship in their {@code .mo} files under {@code /usr/share/locale}. Run by
 * {@code scripts/consequential-words.sh}; reads only what is installed, downloads nothing.
 *
 * <p>Only whole labels count: a msgid that is the English word itself once its mnemonic ({@code _})
 * and ellipsis are removed ({@code _Delete}, {@code Paste}, {@code Submit}, {@code _Move to Trash});
 * phrases are not split, since a translation cannot be aligned word by word. Domains are those of the
 * GUI toolkits and apps; messages whose sense is not the action are left out (the Delete key's name,
 * the calculator's +/- sign). A translation is left out when the same language also uses it for an
 * everyday label ({@link #SAFE}), or when it is a word of the installed apps' English labels.
 */
public final class WordListGenerator {

    /** The English words of the built-in list, category → labels, that translations are looked for. */
    static final Map<String, List<String>> ENGLISH = english();

    /** Text domains of the desktop's GUI toolkits and apps (not command-line tools, whose msgids are sentences). */
    public static final Set<String> DOMAINS = Set.of(
            "gtk20",
            "gtk30",
            "gtk40",
            "pluma",
            "mousepad",
            "gnome-text-editor",
            "gnome-calculator",
            "galculator",
            "WebKitGTK-4.1",
            "goffice-0.10.55",
            "jwm",
            "icewm",
            "openbox",
            "sakura",
            "vte-2.91",
            "evolution-data-server",
            "gnupg2",
            "zenity",
            "yad",
            "mate-desktop",
            "libadwaita",
            "gtksourceview-4",
            "gtksourceview-5",
            "gspell-1");

    /** msgctxt values whose message is not the action: key names on a keyboard. */
    static final Set<String> SKIPPED_CONTEXTS = Set.of("keyboard label");

    /** domain|msgid pairs whose sense is not the action. */
    static final Set<String> SKIPPED = Set.of("gnome-calculator|Sign");

    /**
     * Everyday labels that are not consequential. A translation of a consequential word that is also a
     * translation of one of these in the same language is left out: some languages give Discard the word
     * for Cancel or Ignore, and gating Cancel everywhere would make the gate noise.
     */
    static final Set<String> SAFE = Set.of(
            "Cancel",
            "Close",
            "OK",
            "Ignore",
            "Undo",
            "Redo",
            "Open",
            "Save",
            "Back",
            "No",
            "Yes",
            "Skip",
            "Abort",
            "Stop",
            "Quit",
            "Continue",
            "Apply",
            "Done",
            "Hide");

    /** A mnemonic or English gloss in brackets: 削除(_D), 签名（Sign）. */
    private static final Pattern BRACKETED = Pattern.compile("\\s*[(（][^)）]*[)）]");

    public record Row(String category, String language, String msgid, String translation) {}

    private WordListGenerator() {}

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : "/usr/share/locale");
        Path out = Path.of(
                args.length > 1
                        ? args[1]
                        : "scope-grant/src/main/resources/dev/deckhand/grant/consequential-words.tsv");
        Map<String, String> sources = new TreeMap<>();
        Set<String> dropped = new TreeSet<>();
        Set<Row> rows = generate(root, sources, dropped);
        List<String> lines = new ArrayList<>();
        lines.add("# The translations of the English consequential words that the desktop's own packages ship,");
        lines.add("# read from their gettext .mo files under " + root + " by scripts/consequential-words.sh");
        lines.add("# (dev.deckhand.grant.tools.WordListGenerator). Do not edit by hand; run the script again.");
        lines.add("# Only whole labels are taken (_Delete, Paste, Submit, _Move to Trash); English words with no");
        lines.add("# such msgid in any installed package have no row and keep the hand-made list of seven languages.");
        lines.add("# Looked for: " + ENGLISH);
        lines.add("# Left out: " + dropped.size() + " translations that are also a translation of an everyday label ("
                + String.join(", ", new TreeSet<>(SAFE)) + ") in that language, or a word of the installed apps'");
        lines.add("# English labels (Walloon Batch for Trash would gate every English Batch).");
        lines.add("# Packages (text domain: package version):");
        sources.forEach((domain, pkg) -> lines.add("#   " + domain + ": " + pkg));
        lines.add("# category\tlanguage\tmsgid\ttranslation");
        for (Row r : rows) lines.add(r.category() + "\t" + r.language() + "\t" + r.msgid() + "\t" + r.translation());
        Files.write(out, lines, StandardCharsets.UTF_8);
        dropped.forEach(d -> System.out.println("left out: " + d));
        System.out.println(rows.size() + " translations from " + sources.size() + " text domains written to " + out);

        Path everydayOut = out.resolveSibling("everyday-words.tsv");
        Map<String, String> everydaySources = new TreeMap<>();
        Set<String> everydayDropped = new TreeSet<>();
        Set<List<String>> everyday = everyday(root, everydaySources, everydayDropped);
        List<String> e = new ArrayList<>();
        e.add(
                "# The translations of the everyday labels of a dialog's buttons (ConsequentialWords.EVERYDAY_LABELS) that");
        e.add("# the desktop's own packages ship, read from their gettext .mo files under " + root + " by");
        e.add("# scripts/consequential-words.sh (dev.deckhand.grant.tools.WordListGenerator). Do not edit by hand.");
        e.add("# Left out: " + everydayDropped.size()
                + " translations with a word of the installed apps' English labels"
                + " that is not everyday (a language's Pass for Skip would make Pass everyday in English).");
        e.add("# Packages (text domain: package version):");
        everydaySources.forEach((domain, pkg) -> e.add("#   " + domain + ": " + pkg));
        e.add("# language\tmsgid\ttranslation");
        for (List<String> r : everyday) e.add(String.join("\t", r));
        Files.write(everydayOut, e, StandardCharsets.UTF_8);
        System.out.println(everyday.size() + " everyday translations written to " + everydayOut);
    }

    /**
     * The translations of {@link ConsequentialWords#EVERYDAY_LABELS} as rows of language, msgid, translation; one with a
     * word of the installed apps' English labels that is not an everyday word is left out.
     */
    public static Set<List<String>> everyday(Path root, Map<String, String> sources, Set<String> dropped)
            throws IOException {
        Set<String> wanted = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        wanted.addAll(ConsequentialWords.EVERYDAY_LABELS);
        Set<String> everydayWords = new TreeSet<>();
        for (String l : ConsequentialWords.EVERYDAY_LABELS) everydayWords.addAll(Labels.words(l));
        List<Path> files = moFiles(root);
        Set<String> english = new TreeSet<>();
        for (Path p : files)
            for (MoFile.Entry e : MoFile.read(p).entries()) english.addAll(Labels.words(label(e.msgid())));
        Set<List<String>> rows = new TreeSet<>(java.util.Comparator.comparing((List<String> r) -> r.get(0))
                .thenComparing(r -> r.get(2))
                .thenComparing(r -> r.get(1)));
        for (Path p : files) {
            String domain = p.getFileName().toString().replaceFirst("\\.mo$", "");
            String language = p.getParent().getParent().getFileName().toString();
            boolean used = false;
            for (MoFile.Entry e : MoFile.read(p).entries()) {
                if (SKIPPED_CONTEXTS.contains(e.context())) continue;
                String msgid = label(e.msgid());
                if (!wanted.contains(msgid)) continue;
                String t = label(e.translation());
                if (t.isEmpty() || t.equalsIgnoreCase(msgid) || t.split("\\s+").length > 4 || t.contains("\t"))
                    continue;
                List<String> foreign = Labels.words(t).stream()
                        .filter(w -> english.contains(w) && !everydayWords.contains(w))
                        .toList();
                if (!foreign.isEmpty()) {
                    dropped.add(language + " " + t + " (" + msgid + ")");
                    continue;
                }
                rows.add(List.of(language, msgid, t));
                used = true;
            }
            if (used) sources.computeIfAbsent(domain, d -> owner(p));
        }
        return rows;
    }

    /** The .mo files of {@link #DOMAINS} under {@code root}'s {@code LANG/LC_MESSAGES}, sorted. */
    private static List<Path> moFiles(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".mo"))
                    .filter(p -> DOMAINS.contains(p.getFileName().toString().replaceFirst("\\.mo$", "")))
                    .filter(p -> p.getParent().getFileName().toString().equals("LC_MESSAGES"))
                    .sorted()
                    .toList();
        }
    }

    /** The rows, sorted; {@code sources} receives domain → "package version" for every domain used. */
    public static Set<Row> generate(Path root, Map<String, String> sources, Set<String> dropped) throws IOException {
        Map<String, String> byLabel = new LinkedHashMap<>();
        ENGLISH.forEach((category, labels) -> labels.forEach(l -> byLabel.put(l.toLowerCase(Locale.ROOT), category)));
        Set<Row> rows = new TreeSet<>(java.util.Comparator.comparing(Row::category)
                .thenComparing(Row::language)
                .thenComparing(Row::translation)
                .thenComparing(Row::msgid));
        List<Path> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".mo"))
                    .sorted()
                    .toList();
        }
        Map<String, Set<String>> safe = new TreeMap<>(); // language → normal forms of SAFE's translations
        Set<String> safeLabels = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        safeLabels.addAll(SAFE);
        Set<String> english = new TreeSet<>(); // normal forms of the words of every English msgid
        for (Path p : files) {
            String domain = p.getFileName().toString().replaceFirst("\\.mo$", "");
            if (!DOMAINS.contains(domain)
                    || !p.getParent().getFileName().toString().equals("LC_MESSAGES")) continue;
            String language = p.getParent().getParent().getFileName().toString();
            for (MoFile.Entry e : MoFile.read(p).entries()) {
                english.addAll(Labels.words(label(e.msgid())));
                if (safeLabels.contains(label(e.msgid()))) {
                    safe.computeIfAbsent(language, l -> new TreeSet<>()).add(Labels.entry(label(e.translation())));
                }
            }
        }
        for (Path p : files) {
            String domain = p.getFileName().toString().replaceFirst("\\.mo$", "");
            if (!DOMAINS.contains(domain)
                    || !p.getParent().getFileName().toString().equals("LC_MESSAGES")) continue;
            String language = p.getParent().getParent().getFileName().toString();
            boolean used = false;
            for (MoFile.Entry e : MoFile.read(p).entries()) {
                if (SKIPPED_CONTEXTS.contains(e.context()) || SKIPPED.contains(domain + "|" + e.msgid())) continue;
                String category = byLabel.get(label(e.msgid()).toLowerCase(Locale.ROOT));
                if (category == null) continue;
                String t = label(e.translation());
                if (t.isEmpty() || t.equalsIgnoreCase(label(e.msgid())) || t.split("\\s+").length > 4) continue;
                if (safe.getOrDefault(language, Set.of()).contains(Labels.entry(t))) {
                    dropped.add(language + " " + t + " (" + label(e.msgid()) + ", also an everyday label)");
                    continue;
                }
                if (english.contains(Labels.entry(t))) {
                    dropped.add(language + " " + t + " (" + label(e.msgid())
                            + ", also an English word of the installed apps)");
                    continue;
                }
                rows.add(new Row(category, language, label(e.msgid()), t));
                used = true;
            }
            if (used) sources.computeIfAbsent(domain, d -> owner(p));
        }
        return rows;
    }

    /** A msgid or translation as the label a person sees: mnemonics, ellipsis and a final colon removed. */
    public static String label(String s) {
        String t = BRACKETED.matcher(s).replaceAll("");
        t = t.replace("_", "")
                .replace("&", "")
                .replace("~", "")
                .replace("…", "")
                .replace("...", "");
        t = t.replaceAll("[:：]\\s*$", "").strip();
        return t.replaceAll("\\s+", " ");
    }

    /** The Debian package owning a file, with its version ("unknown" when dpkg cannot tell). */
    private static String owner(Path file) {
        try {
            String pkg = run("dpkg", "-S", file.toString()).split(":", 2)[0].trim();
            return pkg + " " + run("dpkg-query", "-W", "-f=${Version}", pkg).trim();
        } catch (IOException | InterruptedException e) {
            return "unknown";
        }
    }

    private static String run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) throw new IOException(String.join(" ", cmd) + " failed");
        return out;
    }

    private static Map<String, List<String>> english() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("send", List.of("Send", "Send Now"));
        m.put("buy", List.of("Buy", "Purchase", "Checkout", "Buy Now"));
        m.put("pay", List.of("Pay", "Pay Now"));
        m.put(
                "delete",
                List.of(
                        "Delete",
                        "Remove",
                        "Discard",
                        "Erase",
                        "Trash",
                        "Destroy",
                        "Wipe",
                        "Move to Trash",
                        "Delete Permanently"));
        m.put("publish", List.of("Publish", "Tweet"));
        m.put("confirm", List.of("Confirm", "Sign"));
        m.put("submit", List.of("Submit"));
        m.put("install", List.of("Install"));
        m.put("allow", List.of("Allow", "Authorize", "Authorise", "Permit"));
        m.put("paste", List.of("Paste"));
        return m;
    }
}
