package dev.deckhand.grant;

import dev.deckhand.grant.tools.MoFile;
import dev.deckhand.grant.tools.WordListGenerator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Walks every menu and button label of the apps installed here through the gate and prints how many
 * gate and which look like false positives ({@code scripts/consequential-words.sh report}).
 *
 * <p>The corpus: the English msgids of the GUI toolkits' and apps' {@code .mo} files (the English
 * labels every translation is made from) that look like a label (one to five words, starting with a
 * capital, no format directive, not a sentence), and LibreOffice's English UI ({@code label}
 * properties of its {@code .ui} files, command {@code Label}s of its registry). Each gated label is
 * sorted by what fired: its first word as a list word (an English command starts with its verb:
 * {@code Delete Row} — counted as meant), its first word with an affix ({@code Deleted Items}), a
 * later word ({@code Sort Order}), or only neighbouring words joined. The last three, and first-word
 * nouns the list words double as ({@code Order}, {@code Trash}, {@code Post}), are the false-positive
 * candidates; the figures are in docs/security.md.
 */
public final class LabelCorpusReport {

    private static final Set<String> EXTRA_DOMAINS = Set.of("software-properties", "polkit-1");
    private static final Pattern UI_LABEL =
            Pattern.compile("<property name=\"label\" translatable=\"yes\"[^>]*>([^<]+)<");
    private static final Pattern XCU_LABEL = Pattern.compile(
            "<prop oor:name=\"(?:Label|ContextLabel|PopupLabel)\"[^>]*>\\s*<value xml:lang=\"en-US\">([^<]+)</value>");

    private LabelCorpusReport() {}

    public static void main(String[] args) throws IOException {
        Map<String, Set<String>> corpus = new TreeMap<>(); // source → labels
        mo(Path.of("/usr/share/locale"), corpus);
        libreOffice(Path.of("/usr/lib/libreoffice"), corpus);
        Set<String> all = new TreeSet<>();
        corpus.values().forEach(all::addAll);
        corpus.forEach((source, labels) -> System.out.println("corpus " + source + ": " + labels.size() + " labels"));

        if (args.length == 2 && args[0].equals("--try")) {
            candidates(all, List.of(args[1].split(",")));
            return;
        }
        ConsequentialWords words = ConsequentialWords.defaults();
        Map<String, List<String>> byKind = new TreeMap<>();
        for (String label : all) {
            Set<String> categories = words.categoriesIn(label);
            if (categories.isEmpty()) continue;
            List<String> w = Labels.words(label);
            String kind;
            if (!w.isEmpty() && words.isListWord(w.get(0))) kind = "1 first word is a list word";
            else if (!w.isEmpty() && words.categoryOf(w.get(0)).isPresent()) kind = "2 first word with an affix";
            else if (w.stream().anyMatch(t -> words.categoryOf(t).isPresent())) kind = "3 a later word";
            else kind = "4 only words joined";
            byKind.computeIfAbsent(kind, k -> new ArrayList<>()).add(label + "  " + categories);
        }
        int gated = byKind.values().stream().mapToInt(List::size).sum();
        System.out.printf("%d distinct labels, %d gate (%.1f%%)%n", all.size(), gated, 100.0 * gated / all.size());
        byKind.forEach((kind, labels) -> System.out.println("  " + kind + ": " + labels.size()));
        // the default that refuses: a label no word gates that is not everyday is unlisted as a dialog's push button
        // (an upper bound: the corpus holds every menu item and button label, most of them no dialog's answer)
        List<String> unlisted = new ArrayList<>();
        for (String label : all) {
            if (words.categoriesIn(label).isEmpty() && !ConsequentialWords.everyday(label)) unlisted.add(label);
        }
        System.out.printf(
                "%d of the %d labels no word gates are not everyday: unlisted as a dialog's push button (%.1f%%)%n",
                unlisted.size(), all.size() - gated, 100.0 * unlisted.size() / (all.size() - gated));
        byKind.forEach((kind, labels) -> {
            System.out.println("== " + kind);
            labels.forEach(l -> System.out.println("  " + l));
        });
    }

    /**
     * For each candidate word ({@code --try pay,subscribe,...}): the labels of the corpus it alone would gate that
     * the list does not gate already, to weigh a word against its false positives before it joins the list.
     */
    private static void candidates(Set<String> all, List<String> candidates) {
        ConsequentialWords now = ConsequentialWords.defaults();
        for (String candidate : candidates) {
            ConsequentialWords with = new ConsequentialWords(Map.of("candidate", Set.of(candidate.replace('_', ' '))));
            List<String> more = new ArrayList<>();
            for (String label : all) {
                if (with.categoriesIn(label).contains("candidate")
                        && !now.categoriesIn(label).contains("candidate")
                        && now.categoriesIn(label).isEmpty()) {
                    more.add(label);
                }
            }
            System.out.println("== " + candidate + ": " + more.size() + " more labels gate");
            more.forEach(l -> System.out.println("  " + l));
        }
    }

    private static void mo(Path root, Map<String, Set<String>> corpus) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".mo")).toList();
        }
        for (Path p : files) {
            String domain = p.getFileName().toString().replaceFirst("\\.mo$", "");
            if (!WordListGenerator.DOMAINS.contains(domain) && !EXTRA_DOMAINS.contains(domain)) continue;
            for (MoFile.Entry e : MoFile.read(p).entries()) {
                String l = WordListGenerator.label(e.msgid());
                if (looksLikeALabel(l))
                    corpus.computeIfAbsent("gettext " + domain, d -> new TreeSet<>())
                            .add(l);
            }
        }
    }

    private static void libreOffice(Path root, Map<String, Set<String>> corpus) throws IOException {
        if (!Files.isDirectory(root)) return;
        List<Path> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(p -> p.toString().endsWith(".ui") || p.toString().endsWith(".xcd"))
                    .toList();
        }
        for (Path p : files) {
            String text = Files.readString(p, StandardCharsets.UTF_8);
            Matcher m = (p.toString().endsWith(".ui") ? UI_LABEL : XCU_LABEL).matcher(text);
            while (m.find()) {
                String l = WordListGenerator.label(m.group(1)
                        .replace("&amp;", "&")
                        .replace("&quot;", "\"")
                        .replace("&apos;", "'")
                        .replace("&lt;", "<")
                        .replace("&gt;", ">"));
                if (looksLikeALabel(l))
                    corpus.computeIfAbsent("libreoffice", d -> new TreeSet<>()).add(l);
            }
        }
    }

    static boolean looksLikeALabel(String l) {
        if (l.isEmpty() || l.length() > 40 || !Character.isUpperCase(l.codePointAt(0))) return false;
        if (l.contains("%") || l.contains("\n") || l.contains("<") || l.contains("{") || l.endsWith(".")) return false;
        return l.split("\\s+").length <= 5;
    }
}
