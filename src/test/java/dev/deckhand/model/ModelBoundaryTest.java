package dev.deckhand.model;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.deckhand.model.stub.ProviderStub;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** LangChain4j stays behind the model package: the rest of the app sees only the port and plain records. */
@Tag("app")
class ModelBoundaryTest {

    @Test
    void onlyTheModelPackageNamesLangChain4j() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.deckhand");
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.deckhand.model..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.langchain4j..")
                .because("provider wire details stay in the model binding")
                .check(classes);
    }

    @Test
    void theStubsHandleEveryKindOfScriptedReply() {
        Set<String> kinds = Arrays.stream(ProviderStub.Reply.class.getPermittedSubclasses())
                .map(Class::getSimpleName)
                .collect(Collectors.toSet());
        assertEquals(
                Set.of("Text", "ErrorReply", "Computed"),
                kinds,
                "a new Reply kind needs a branch in ProviderStub.handle");
    }
}
