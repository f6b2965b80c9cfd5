package dev.deckhand;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The module boundaries of DESIGN.md §1, as tests (the pure modules' POMs also ban the artifacts). */
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
        noClasses().that().resideInAnyPackage("dev.deckhand.loop..", "dev.deckhand.grant..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.quarkus..", "io.quarkiverse..", "jakarta..", "javax.inject..", "com.sun.jna..",
                        "dev.langchain4j..", "io.vertx..")
                .because("loop/ and scope-grant/ are pure: the JDK and Jackson at most (DESIGN.md §1)")
                .check(classes);
    }

    @Test
    void jacksonIsTheOneJsonLibrary() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("com.google.gson..", "org.json..",
                        "jakarta.json..", "javax.json..", "org.glassfish.json..", "net.minidev.json..", "io.vertx.core.json..",
                        "com.jayway.jsonpath..", "org.eclipse.yasson..")
                .because("JSON is read and written with Jackson only, never a second library or a hand-written parser")
                .check(classes);
    }

    @Test
    void pureModulesDoNoIo() {
        noClasses().that().resideInAnyPackage("dev.deckhand.loop..", "dev.deckhand.grant..")
                .should().dependOnClassesThat().resideInAnyPackage("java.net..", "java.nio.file..", "java.sql..")
                .because("the pure modules talk to the world only through ports")
                .check(classes);
    }

    @Test
    void onlyThePlatformPackageTouchesJna() {
        noClasses().that().resideOutsideOfPackage("dev.deckhand.platform..")
                .should().dependOnClassesThat().resideInAnyPackage("com.sun.jna..")
                .because("native code is confined to the platform drivers")
                .check(classes);
    }

    @Test
    void pureModulesDoNotDependOnTheApplication() {
        noClasses().that().resideInAnyPackage("dev.deckhand.loop..", "dev.deckhand.grant..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.deckhand.app..", "dev.deckhand.mcp..",
                        "dev.deckhand.platform..", "dev.deckhand.security..", "dev.deckhand.settings..",
                        "dev.deckhand.audit..", "dev.deckhand.model..")
                .check(classes);
    }

    @Test
    void onlyTheOwnerSideAndTheTerminalMintGrants() {
        noClasses().that().resideOutsideOfPackages("dev.deckhand.owner..", "dev.deckhand.cli..", "dev.deckhand.app..",
                        "dev.deckhand.eval..")
                .should().dependOnClassesThat().haveFullyQualifiedName("dev.deckhand.owner.TerminalGrants")
                .because("only the person mints: the web page's owner API, deckhand run at their terminal, or deckhand eval "
                        + "acting as the person in a task's private desktop; the MCP side never reaches a mint path")
                .check(classes);
    }
}
