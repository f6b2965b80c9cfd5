package dev.deckhand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.annotation.Testable;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * Every test class of the three modules carries exactly one tier tag (docs/testing.md#the-tiers): {@code pure},
 * {@code app}, {@code desktop} or {@code e2e}, on the class or a superclass (JUnit inherits {@code @Tag}), and no
 * test method carries one of its own, so that each {@code -Ptier-…} profile runs every test in exactly one tier.
 * A {@code @QuarkusTest} is {@code app} or {@code e2e}, and the {@code dev.deckhand.e2e} package holds {@code e2e}
 * tests only: the tier profiles rely on both to spare Quarkus building applications no test of the tier uses.
 * Read by reflection, as JUnit reads tags, from the compiled test classes of loop/, scope-grant/ and src/
 * (loaded, never initialised; build them first: {@code mvn -pl src -am test-compile}).
 */
@Tag("pure")
class TestTiersTest {

    static final Set<String> TIERS = Set.of("pure", "app", "desktop", "e2e");
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final List<String> TEST_CLASSES =
            List.of("loop/target/test-classes", "scope-grant/target/test-classes", "src/target/test-classes");

    @Test
    void everyTestClassHasExactlyOneTier() throws Exception {
        List<Path> dirs = new ArrayList<>();
        for (String dir : TEST_CLASSES) {
            Path path = ROOT.resolve(dir);
            assertTrue(Files.isDirectory(path), path + " is built (mvn -pl src -am test-compile)");
            dirs.add(path);
        }
        Map<String, Set<String>> bad = new TreeMap<>();
        Map<String, Integer> perTier = new TreeMap<>();
        // src's own test classes are on this class path already; the pure modules' are read through a loader of
        // their own whose parent (this class path) holds their main classes and test libraries.
        try (URLClassLoader loader = new URLClassLoader(
                new URL[] {dirs.get(0).toUri().toURL(), dirs.get(1).toUri().toURL()},
                TestTiersTest.class.getClassLoader())) {
            for (Path dir : dirs) {
                for (String name : classNames(dir)) {
                    Class<?> c = Class.forName(name, false, loader);
                    if (!isTestClass(c)) continue;
                    Set<String> tiers = tiers(AnnotationSupport.findRepeatableAnnotations(c, Tag.class));
                    if (tiers.size() == 1) {
                        perTier.merge(tiers.iterator().next(), 1, Integer::sum);
                    } else {
                        bad.put(name, tiers);
                    }
                    // What the profiles rely on to keep Quarkus from building applications a tier never uses (root
                    // pom.xml): no @QuarkusTest in the pure and desktop tiers, nothing but e2e in the e2e package.
                    if (AnnotationSupport.isAnnotated(c, QuarkusTest.class)
                            && !tiers.contains("app")
                            && !tiers.contains("e2e")) {
                        bad.put(name + " (a @QuarkusTest is app or e2e)", tiers);
                    }
                    if (name.startsWith("dev.deckhand.e2e.") && !tiers.equals(Set.of("e2e"))) {
                        bad.put(name + " (the e2e package holds e2e tests only)", tiers);
                    }
                    for (Method m :
                            ReflectionSupport.findMethods(c, TestTiersTest::isTest, HierarchyTraversalMode.TOP_DOWN)) {
                        Set<String> own = tiers(AnnotationSupport.findRepeatableAnnotations(m, Tag.class));
                        if (!own.isEmpty()) bad.put(name + "." + m.getName() + "()", own);
                    }
                }
            }
        }
        assertEquals(Map.of(), bad, "test classes need exactly one tier tag of " + TIERS + ", their methods none");
        assertTrue(
                perTier.getOrDefault("pure", 0) > 50 && perTier.keySet().equals(TIERS),
                "the test classes were read: " + perTier);
    }

    private static List<String> classNames(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.map(p -> dir.relativize(p).toString())
                    .filter(p -> p.endsWith(".class") && !p.contains("jmh_generated"))
                    .map(p -> p.substring(0, p.length() - ".class".length()).replace('/', '.'))
                    .sorted()
                    .toList();
        }
    }

    /** A class JUnit runs as a test class: concrete, not {@code @Nested} (the enclosing class's tags apply), with a test method. */
    private static boolean isTestClass(Class<?> c) {
        if (c.isInterface()
                || Modifier.isAbstract(c.getModifiers())
                || AnnotationSupport.isAnnotated(c, Nested.class)) {
            return false;
        }
        return !ReflectionSupport.findMethods(c, TestTiersTest::isTest, HierarchyTraversalMode.TOP_DOWN)
                .isEmpty();
    }

    /** {@code @Test}, {@code @ParameterizedTest}, {@code @RepeatedTest}, ...: every test annotation is {@code @Testable}. */
    private static boolean isTest(Method m) {
        return AnnotationSupport.isAnnotated(m, Testable.class);
    }

    private static Set<String> tiers(List<Tag> tags) {
        Set<String> tiers = new TreeSet<>();
        for (Tag t : tags) {
            if (TIERS.contains(t.value())) tiers.add(t.value());
        }
        return tiers;
    }
}
