package dev.deckhand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The repository carries its own documents: every link in README.md and docs/ names a file inside the
 * repository that exists, never a path outside it or a web address, and a link's anchor names a heading of
 * its page. A {@code docs/….md#anchor} cited in a comment of the code, the POMs, the scripts or the tasks
 * must find its page and heading too.
 */
@Tag("pure")
class DocsLinksTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** {@code [text](target)} and {@code ![alt](target)}; the target ends at the first space or parenthesis. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

    @Test
    void everyLinkStaysInsideTheRepositoryAndFindsItsFile() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).forEach(pages::add);
        }
        List<String> bad = new ArrayList<>();
        int links = 0;
        for (Path page : pages) {
            Matcher m = LINK.matcher(Files.readString(page));
            while (m.find()) {
                links++;
                String target = m.group(1);
                String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                Path resolved =
                        file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (target.contains("://")
                        || target.startsWith("mailto:")
                        || !resolved.startsWith(ROOT)
                        || !Files.exists(resolved)
                        || !anchorFound(resolved, target)) {
                    bad.add(ROOT.relativize(page) + " → " + target);
                }
            }
        }
        assertTrue(links > 10, "the pages were read (" + links + " links)");
        assertEquals(List.of(), bad, "links that leave the repository or find no file or heading");
    }

    /** A page under docs/, with its anchor if it has one, where a word starts (in comments, POMs, scripts). */
    private static final Pattern CITED = Pattern.compile("(?<![\\w./-])(docs/[\\w./-]+\\.md)(#[\\w-]+)?");

    @Test
    void everyDocCitedByTheCodeFindsItsPageAndHeading() throws IOException {
        List<Path> sources = new ArrayList<>();
        for (String dir :
                List.of("src/main", "src/test", "loop/src", "scope-grant/src", "scripts", "tasks", "docker")) {
            try (Stream<Path> files = Files.walk(ROOT.resolve(dir))) {
                files.filter(Files::isRegularFile)
                        .filter(DocsLinksTest::ours)
                        .filter(p -> p.toString().matches(".*\\.(java|xml|properties|sh|json|js|html)$")
                                || p.getParent().endsWith("scripts"))
                        .forEach(sources::add);
            }
        }
        for (String pom : List.of("pom.xml", "src/pom.xml", "loop/pom.xml", "scope-grant/pom.xml"))
            sources.add(ROOT.resolve(pom));
        List<String> bad = new ArrayList<>();
        int cited = 0;
        for (Path source : sources) {
            Matcher m = CITED.matcher(Files.readString(source));
            while (m.find()) {
                cited++;
                Path doc = ROOT.resolve(m.group(1)).normalize();
                String target = m.group(1) + (m.group(2) == null ? "" : m.group(2));
                if (!doc.startsWith(ROOT) || !Files.exists(doc) || !anchorFound(doc, target)) {
                    bad.add(ROOT.relativize(source) + " → " + target);
                }
            }
        }
        assertTrue(cited > 10, "the sources were read (" + cited + " citations)");
        assertEquals(List.of(), bad, "citations of docs that find no page or heading");
    }

    /** Not a file the repository carries: installed packages and build output. */
    private static boolean ours(Path file) {
        for (Path part : ROOT.relativize(file)) {
            if (part.toString().equals("node_modules") || part.toString().equals("target")) return false;
        }
        return true;
    }

    /** The headings' anchors as GitHub makes them, per page. */
    private static final Map<Path, Set<String>> ANCHORS = new HashMap<>();

    /** Whether {@code target}'s anchor, if any, names a heading of {@code page} (only Markdown pages have them). */
    private static boolean anchorFound(Path page, String target) throws IOException {
        if (!target.contains("#")) return true;
        if (!page.toString().endsWith(".md")) return false;
        String anchor = target.substring(target.indexOf('#') + 1);
        Set<String> anchors = ANCHORS.get(page);
        if (anchors == null) {
            anchors = anchors(Files.readString(page));
            ANCHORS.put(page, anchors);
        }
        return anchors.contains(anchor);
    }

    /**
     * GitHub's heading anchors: the heading's text without Markdown marks, lower case, everything but letters,
     * digits, spaces, {@code -} and {@code _} dropped, spaces as {@code -}; a repeated one gets {@code -1},
     * {@code -2}. Lines inside fenced code blocks are not headings.
     */
    static Set<String> anchors(String markdown) {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : markdown.split("\n")) {
            if (line.startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            Matcher h = HEADING.matcher(line);
            if (fenced || !h.matches()) continue;
            String text =
                    h.group(1).replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replace("`", "");
            String slug = text.toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N} _-]", "")
                    .replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum);
            anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
        }
        return anchors;
    }

    private static final Pattern HEADING = Pattern.compile("#{1,6}\\s+(.*?)\\s*#*\\s*");

    @Test
    void anchorsAreMadeAsGitHubMakesThem() {
        assertEquals(
                Set.of("the-tool-computer", "deckhands-own-secrets", "input", "input-1", "owner-boundary"),
                anchors("# The tool `computer`\n## Deckhand's own secrets\n### Input\n```\n# not a heading\n```\n"
                        + "### Input\n## [Owner boundary](x.md)\n"));
    }
}
