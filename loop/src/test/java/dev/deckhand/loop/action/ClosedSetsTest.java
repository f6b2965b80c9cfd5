package dev.deckhand.loop.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.json.Json;
import dev.deckhand.loop.verify.VerifierSpec;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Walks the sealed sets so a new case cannot be forgotten by the schema, the parser or a dispatcher. */
@Tag("pure")
class ClosedSetsTest {

    /** One valid wire sample per action kind. */
    static final Map<String, String> SAMPLES = Map.ofEntries(
            Map.entry("click", "{\"action\":\"click\",\"uid\":\"u1\"}"),
            Map.entry("set_text", "{\"action\":\"set_text\",\"uid\":\"u1\",\"text\":\"x\"}"),
            Map.entry("type", "{\"action\":\"type\",\"text\":\"x\"}"),
            Map.entry("key", "{\"action\":\"key\",\"keys\":\"ctrl+s\"}"),
            Map.entry("focus", "{\"action\":\"focus\",\"uid\":\"u1\"}"),
            Map.entry("scroll", "{\"action\":\"scroll\",\"uid\":\"u1\",\"direction\":\"up\",\"amount\":1}"),
            Map.entry("select", "{\"action\":\"select\",\"uid\":\"u1\",\"option\":\"o\"}"),
            Map.entry("click_at", "{\"action\":\"click_at\",\"x\":1,\"y\":1,\"basis\":\"c1\"}"),
            Map.entry("wait", "{\"action\":\"wait\",\"ms\":1}"),
            Map.entry("done", "{\"action\":\"done\",\"summary\":\"s\"}"),
            Map.entry("fail", "{\"action\":\"fail\",\"reason\":\"r\"}"));

    @Test
    void everyActionIsInTheSchemaAndTheParser() {
        Class<?>[] permitted = Action.class.getPermittedSubclasses();
        Set<Class<?>> specTypes = new HashSet<>();
        for (ActionSchema.ActionSpec s : ActionSchema.specs()) specTypes.add(s.type());
        assertEquals(Set.of(permitted), specTypes, "one spec per permitted subclass");
        assertEquals(permitted.length, ActionSchema.specs().size());

        Map<?, ?> schema = (Map<?, ?>) Json.parse(ActionSchema.json());
        Map<?, ?> props = (Map<?, ?>) schema.get("properties");
        List<?> kinds = (List<?>) ((Map<?, ?>) props.get("action")).get("enum");
        Set<String> allRecordFields = new HashSet<>();
        allRecordFields.add("action");
        for (Class<?> c : permitted) {
            ActionSchema.ActionSpec spec = ActionSchema.specs().stream()
                    .filter(s -> s.type() == c)
                    .findFirst()
                    .orElseThrow();
            assertTrue(kinds.contains(spec.kind()), "schema's action enum has " + spec.kind());
            Set<String> recordFields = new HashSet<>();
            for (var rc : c.getRecordComponents()) recordFields.add(rc.getName());
            Set<String> specFields = new HashSet<>();
            spec.fields().forEach(f -> specFields.add(f.name()));
            assertEquals(recordFields, specFields, "spec fields = record components for " + spec.kind());
            for (String field : recordFields) {
                String description = (String) ((Map<?, ?>) props.get(field)).get("description");
                assertTrue(
                        description.matches("Required for (.*[ ,])?" + spec.kind() + "[ ,;].*"),
                        field + "'s description names " + spec.kind() + ": " + description);
            }
            allRecordFields.addAll(recordFields);

            Action compact = ActionParser.parse(SAMPLES.get(spec.kind()));
            assertEquals(c, compact.getClass(), "parser builds " + c.getSimpleName());
            assertEquals(spec.kind(), compact.kind());
            assertEquals(
                    compact,
                    ActionParser.parse(strictForm(SAMPLES.get(spec.kind()), props.keySet())),
                    "the every-field-with-nulls form of " + spec.kind() + " parses the same");
            Set<String> alone = Set.of(spec.kind());
            assertEquals(
                    compact,
                    ActionParser.parse(strictForm(SAMPLES.get(spec.kind()), ActionSchema.properties(alone)), alone));
            Map<?, ?> aloneProps = (Map<?, ?>) ((Map<?, ?>) Json.parse(ActionSchema.json(alone))).get("properties");
            Set<String> expected = new HashSet<>(recordFields);
            expected.add("action");
            assertEquals(expected, aloneProps.keySet(), "the schema for " + spec.kind() + " alone has only its fields");
        }
        assertEquals(permitted.length, kinds.size());
        assertEquals(allRecordFields, props.keySet(), "the flat properties are the union of the record components");
        assertEquals(allRecordFields, ActionSchema.properties(ActionSchema.kinds()));
    }

    /** The sample with every other property of {@code properties} present and null, as strict output has it. */
    static String strictForm(String sample, Set<?> properties) {
        Map<String, Object> strict = new LinkedHashMap<>();
        for (Object p : properties) strict.put((String) p, null);
        ((Map<?, ?>) Json.parse(sample)).forEach((k, v) -> strict.put((String) k, v));
        return Json.write(strict);
    }

    @Test
    void everyVerifierKindParses() {
        Map<Class<?>, String> samples = Map.of(
                VerifierSpec.A11y.class,
                        "{\"kind\":\"a11y\",\"target\":{\"role\":\"text\",\"index\":0},\"expect\":{\"text\":\"84\"}}",
                VerifierSpec.Window.class, "{\"kind\":\"window\",\"titleMatches\":\"^Calc\"}",
                VerifierSpec.File.class, "{\"kind\":\"file\",\"path\":\"/tmp/a\",\"exists\":true}",
                VerifierSpec.Command.class, "{\"kind\":\"command\",\"argv\":[\"true\"]}");
        Class<?>[] permitted = VerifierSpec.class.getPermittedSubclasses();
        assertEquals(Set.of(permitted), samples.keySet());
        for (Class<?> c : permitted)
            assertEquals(c, VerifierSpec.parse(samples.get(c)).getClass());
    }
}
