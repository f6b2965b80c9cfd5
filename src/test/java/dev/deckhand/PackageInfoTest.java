package dev.deckhand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every package of the main code says, in its {@code package-info.java}, what it owns and what it may import
 * (the rules {@link ArchitectureTest} checks; docs/architecture.md#the-packages), so a new package takes its
 * place in words as well as in the layers.
 */
@Tag("pure")
class PackageInfoTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final List<String> MAIN =
            List.of("src/main/java", "loop/src/main/java", "scope-grant/src/main/java");
    /** A Javadoc comment, then the package declaration. */
    private static final Pattern INFO =
            Pattern.compile("\\A\\s*/\\*\\*(.*?)\\*/\\s*package\\s+([\\w.]+)\\s*;", Pattern.DOTALL);

    @Test
    void everyMainPackageHasAPackageInfoThatSaysWhatItOwnsAndMayImport() throws IOException {
        List<String> bad = new ArrayList<>();
        int packages = 0;
        for (String main : MAIN) {
            Path root = ROOT.resolve(main);
            TreeSet<Path> dirs = new TreeSet<>();
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(p -> p.toString().endsWith(".java")
                                && !p.getFileName().toString().equals("package-info.java"))
                        .forEach(p -> dirs.add(p.getParent()));
            }
            for (Path dir : dirs) {
                packages++;
                String name = root.relativize(dir)
                        .toString()
                        .replace(dir.getFileSystem().getSeparator(), ".");
                Path info = dir.resolve("package-info.java");
                if (!Files.exists(info)) {
                    bad.add(name + ": no package-info.java");
                    continue;
                }
                Matcher m = INFO.matcher(Files.readString(info));
                if (!m.find()) {
                    bad.add(name + ": package-info.java has no Javadoc before its package declaration");
                } else if (!m.group(2).equals(name)) {
                    bad.add(name + ": package-info.java declares " + m.group(2));
                } else if (!m.group(1).contains("import")) {
                    bad.add(name + ": package-info.java does not say what the package may import");
                }
            }
        }
        assertTrue(packages > 20, "the packages were found (" + packages + ")");
        assertEquals(List.of(), bad, "main packages without their package-info.java");
    }
}
