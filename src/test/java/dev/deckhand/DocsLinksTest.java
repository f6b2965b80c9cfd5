package dev.deckhand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The repository carries its own documents: every link in README.md and docs/ names a file inside the
 * repository that exists (or an anchor of the same page), never a path outside it or a web address.
 */
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
                if (target.startsWith("#")) continue;
                String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                Path resolved = page.getParent().resolve(file).normalize();
                if (target.contains("://") || target.startsWith("mailto:") || !resolved.startsWith(ROOT)
                        || !Files.exists(resolved)) {
                    bad.add(ROOT.relativize(page) + " → " + target);
                }
            }
        }
        assertTrue(links > 10, "the pages were read (" + links + " links)");
        assertEquals(List.of(), bad, "links that leave the repository or find no file");
    }
}
