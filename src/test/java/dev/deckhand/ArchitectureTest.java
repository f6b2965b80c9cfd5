package dev.deckhand;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The module boundaries of docs/design.md#modules and the layers of docs/architecture.md, as tests (the pure modules'
 * POMs also ban the artifacts).
 */
@Tag("pure")
class ArchitectureTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.deckhand");
    }

    @Test
    void pureModulesNameNoFrameworkOrNativeLibrary() {
        noClasses()
                .that()
                .resideInAnyPackage("dev.deckhand.loop..", "dev.deckhand.grant..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.quarkus..",
                        "io.quarkiverse..",
                        "jakarta..",
                        "javax.inject..",
                        "com.sun.jna..",
                        "dev.langchain4j..",
                        "io.vertx..")
                .because("loop/ and scope-grant/ are pure: the JDK and Jackson at most (docs/design.md#modules)")
                .check(classes);
    }

    @Test
    void jacksonIsTheOneJsonLibrary() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "com.google.gson..",
                        "org.json..",
                        "jakarta.json..",
                        "javax.json..",
                        "org.glassfish.json..",
                        "net.minidev.json..",
                        "io.vertx.core.json..",
                        "com.jayway.jsonpath..",
                        "org.eclipse.yasson..")
                .because("JSON is read and written with Jackson only, never a second library or a hand-written parser")
                .check(classes);
    }

    @Test
    void pureModulesDoNoIo() {
        noClasses()
                .that()
                .resideInAnyPackage("dev.deckhand.loop..", "dev.deckhand.grant..")
                .should()
                .dependOnClassesThat(com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage(
                                "java.net..", "java.nio.file..", "java.sql..")
                        .and(com.tngtech.archunit.base.DescribedPredicate.not(
                                com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf(
                                        java.nio.file.Path.class, java.nio.file.InvalidPathException.class))))
                .because("the pure modules talk to the world only through ports; a path as a value (Path, its parse "
                        + "error) is allowed for the denied-places matcher, which resolves links through a port")
                .check(classes);
    }

    @Test
    void onlyThePlatformPackageTouchesJna() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.deckhand.platform..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("com.sun.jna..")
                .because("native code is confined to the platform drivers")
                .check(classes);
    }

    @Test
    void pureModulesDoNotDependOnTheApplication() {
        noClasses()
                .that()
                .resideInAnyPackage("dev.deckhand.loop..", "dev.deckhand.grant..")
                .should()
                .dependOnClassesThat(JavaClass.Predicates.resideInAPackage("dev.deckhand..")
                        .and(JavaClass.Predicates.resideOutsideOfPackages(
                                "dev.deckhand.loop..", "dev.deckhand.grant..")))
                .check(classes);
    }

    /** No package cycles: each top-level package (and everything under it) is one slice. */
    @Test
    void noPackageCycles() {
        slices().matching("dev.deckhand.(*)..").should().beFreeOfCycles().check(classes);
    }

    /**
     * No cycles between single packages either, so that a top-level package's own subpackages (platform's
     * port, its Linux driver and the X11 and AT-SPI code under it) stack as well: each package is one slice.
     */
    @Test
    void noCyclesBetweenSinglePackages() {
        slices().matching("dev.deckhand.(**)").should().beFreeOfCycles().check(classes);
    }

    /**
     * The layers of docs/architecture.md, top to bottom: no import runs back up. Packages of one layer may
     * use each other (without cycles, {@link #noPackageCycles}).
     */
    @Test
    void importsRunDownTheLayersOnly() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("Roof")
                .definedBy("dev.deckhand.boot..")
                .layer("Front ends")
                .definedBy(
                        "dev.deckhand.mcp..",
                        "dev.deckhand.cli..",
                        "dev.deckhand.eval..",
                        "dev.deckhand.web..",
                        "dev.deckhand.settings..")
                .layer("Run")
                .definedBy("dev.deckhand.run..")
                .layer("Services")
                .definedBy(
                        "dev.deckhand.owner..",
                        "dev.deckhand.presence..",
                        "dev.deckhand.doctor..",
                        "dev.deckhand.model..",
                        "dev.deckhand.audit..",
                        "dev.deckhand.policy..",
                        "dev.deckhand.security..")
                .layer("Platform")
                .definedBy("dev.deckhand.platform..")
                .layer("Foundation")
                .definedBy("dev.deckhand.home..")
                .layer("Pure core")
                .definedBy("dev.deckhand.loop..", "dev.deckhand.grant..")
                .whereLayer("Roof")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("Front ends")
                .mayOnlyBeAccessedByLayers("Roof")
                .whereLayer("Run")
                .mayOnlyBeAccessedByLayers("Roof", "Front ends")
                .whereLayer("Services")
                .mayOnlyBeAccessedByLayers("Roof", "Front ends", "Run")
                .whereLayer("Platform")
                .mayOnlyBeAccessedByLayers("Roof", "Front ends", "Run", "Services")
                .whereLayer("Foundation")
                .mayOnlyBeAccessedByLayers("Roof", "Front ends", "Run", "Services", "Platform")
                .because("the roof (boot) alone knows the commands and the foundation (home) knows no one")
                .check(classes);
    }

    @Test
    void everyApplicationPackageIsInALayer() {
        classes()
                .that()
                .resideInAPackage("dev.deckhand..")
                .should()
                .resideInAnyPackage(
                        "dev.deckhand.boot..",
                        "dev.deckhand.mcp..",
                        "dev.deckhand.cli..",
                        "dev.deckhand.eval..",
                        "dev.deckhand.web..",
                        "dev.deckhand.settings..",
                        "dev.deckhand.run..",
                        "dev.deckhand.owner..",
                        "dev.deckhand.presence..",
                        "dev.deckhand.doctor..",
                        "dev.deckhand.model..",
                        "dev.deckhand.audit..",
                        "dev.deckhand.policy..",
                        "dev.deckhand.security..",
                        "dev.deckhand.platform..",
                        "dev.deckhand.home..",
                        "dev.deckhand.loop..",
                        "dev.deckhand.grant..")
                .because("a new package takes its place in the layers (docs/architecture.md) before it is used")
                .check(classes);
    }

    /**
     * Where a refusal is decided it names its code through the factory ({@code Refusal.ownWindow(detail)}, ...):
     * the code-taking forms are for codes chosen at run time, which no application code has.
     */
    @Test
    void refusalsAreBuiltByTheFactoryNamedByTheirCode() {
        noClasses()
                .that()
                .doNotHaveFullyQualifiedName("dev.deckhand.grant.RefusedException")
                .should()
                .callMethod("dev.deckhand.grant.Refusal", "of", "dev.deckhand.grant.RefusalCode", "java.lang.String")
                .orShould()
                .callConstructor(
                        "dev.deckhand.grant.RefusedException", "dev.deckhand.grant.RefusalCode", "java.lang.String")
                .because("a refusal names its code where it is built (Refusal's factories); it travels as a value and "
                        + "is thrown as RefusedException only to unwind a driver's call stack")
                .check(classes);
    }

    @Test
    void onlyTheOwnerSideAndTheTerminalMintGrants() {
        noClasses()
                .that()
                .resideOutsideOfPackages(
                        "dev.deckhand.owner..", "dev.deckhand.cli..", "dev.deckhand.boot..", "dev.deckhand.eval..")
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName("dev.deckhand.owner.TerminalGrants")
                .because(
                        "only the person mints: the web page's owner API, deckhand run at their terminal, or deckhand eval "
                                + "acting as the person in a task's private desktop; the MCP side never reaches a mint path")
                .check(classes);
    }

    /**
     * Tests speak MCP through McpAssured (dev.deckhand.mcp.Mcp, docs/testing.md#how-tests-speak-mcp): no test source
     * writes a JSON-RPC message by hand (a {@code jsonrpc} string) or names the MCP path in a string (a request built
     * by hand, with REST Assured, java.net.http or a socket), except the classes listed here, each of which says at
     * its top why it stays raw.
     */
    @Test
    void testsSpeakMcpThroughMcpAssured() throws IOException {
        Set<String> raw = Set.of(
                // the HTTP guard itself: Origin, Host, tokens, paths, framing, the guard's own answers
                "dev/deckhand/security/HttpGuardTest.java",
                "dev/deckhand/security/PathSpellingTest.java",
                "dev/deckhand/security/PublishedOriginHttpTest.java",
                "dev/deckhand/security/ResponseHeadersTest.java",
                "dev/deckhand/security/OwnerSessionTest.java",
                "dev/deckhand/security/RawHttp.java",
                // the guard through a container's port mapping
                "dev/deckhand/eval/FleetAcceptance.java",
                // a timing program (not a test) that measures the server over one kept connection
                "dev/deckhand/bench/StepBench.java",
                // the one place that gives McpAssured the path, and the URL handed to the TypeScript SDK
                "dev/deckhand/mcp/Mcp.java",
                "dev/deckhand/it/PackagedApp.java");
        Pattern handWritten = Pattern.compile("\"[^\"\\n]*(jsonrpc|/mcp(?![\\w-]))");
        List<String> found = new ArrayList<>();
        // The working directory is src/'s (sources in test/java); the pure modules' are beside it.
        for (String module : List.of("test/java", "../loop/src/test/java", "../scope-grant/src/test/java")) {
            Path root = Path.of(module);
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file :
                        files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    String name = root.relativize(file).toString();
                    if (raw.contains(name) || file.endsWith("ArchitectureTest.java")) continue;
                    List<String> lines = Files.readAllLines(file);
                    for (int i = 0; i < lines.size(); i++) {
                        if (handWritten.matcher(lines.get(i)).find())
                            found.add(module + "/" + name + ":" + (i + 1) + ": "
                                    + lines.get(i).strip());
                    }
                }
            }
        }
        for (String name : raw) {
            assertTrue(Files.isRegularFile(Path.of("test/java", name)), "the list names a class that is gone: " + name);
        }
        assertEquals(
                List.of(),
                found,
                "MCP spoken by hand outside the HTTP-guard tests; use dev.deckhand.mcp.Mcp (McpAssured)");
    }
}
