package dev.deckhand.loop.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.json.Json;
import dev.deckhand.loop.verify.VerifierSpec;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Walks the sealed sets so a new case cannot be forgotten by the schema, the parser or a dispatcher. */
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
        List<?> oneOf = (List<?>) schema.get("oneOf");
        Map<String, Map<?, ?>> byConst = new HashMap<>();
        for (Object o : oneOf) {
            Map<?, ?> branch = (Map<?, ?>) o;
            assertEquals(false, branch.get("additionalProperties"));
            Map<?, ?> props = (Map<?, ?>) branch.get("properties");
            assertEquals(props.keySet(), Set.copyOf((List<?>) branch.get("required")), "every field required");
            byConst.put((String) ((Map<?, ?>) props.get("action")).get("const"), branch);
        }
        for (Class<?> c : permitted) {
            ActionSchema.ActionSpec spec = ActionSchema.specs().stream().filter(s -> s.type() == c).findFirst().orElseThrow();
            assertTrue(byConst.containsKey(spec.kind()), "schema has " + spec.kind());
            Set<String> schemaFields = new HashSet<>();
            for (Object k : ((Map<?, ?>) byConst.get(spec.kind()).get("properties")).keySet()) schemaFields.add((String) k);
            Set<String> recordFields = new HashSet<>();
            recordFields.add("action");
            for (var rc : c.getRecordComponents()) recordFields.add(rc.getName());
            assertEquals(recordFields, schemaFields, "schema fields = record components for " + spec.kind());
            Action parsed = ActionParser.parse(SAMPLES.get(spec.kind()));
            assertEquals(c, parsed.getClass(), "parser builds " + c.getSimpleName());
            assertEquals(spec.kind(), parsed.kind());
        }
        assertEquals(permitted.length, byConst.size());
    }

    @Test
    void everyVerifierKindParses() {
        Map<Class<?>, String> samples = Map.of(
                VerifierSpec.A11y.class, "{\"kind\":\"a11y\",\"target\":{\"role\":\"text\",\"index\":0},\"expect\":{\"text\":\"84\"}}",
                VerifierSpec.Window.class, "{\"kind\":\"window\",\"titleMatches\":\"^Calc\"}",
                VerifierSpec.File.class, "{\"kind\":\"file\",\"path\":\"/tmp/a\",\"exists\":true}",
                VerifierSpec.Command.class, "{\"kind\":\"command\",\"argv\":[\"true\"]}");
        Class<?>[] permitted = VerifierSpec.class.getPermittedSubclasses();
        assertEquals(Set.of(permitted), samples.keySet());
        for (Class<?> c : permitted) assertEquals(c, VerifierSpec.parse(samples.get(c)).getClass());
    }
}
