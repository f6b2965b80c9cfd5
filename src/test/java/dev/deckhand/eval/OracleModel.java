package dev.deckhand.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.deckhand.loop.observe.Roles;
import dev.deckhand.model.stub.ProviderStub;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scripted model that knows the suite: it reads the instruction and the observation Deckhand sent,
 * and answers the task's next oracle step as the model's action, naming the element by the uid the
 * step's selector picks in that observation; after the last step it answers {@code done}.
 */
final class OracleModel {

    /** {@code <indent><uid> <role> "<name>" ...}: the observation's element lines. */
    private static final Pattern LINE =
            Pattern.compile("^\\s*(u[0-9A-Za-z]{3,16}) (.+?)(?: \"([^\"]*)\")?(?: =\"[^\"]*\")?(?: \\[[^]]*])?$");

    private final Map<String, JsonNode> oracleByInstruction = new HashMap<>();
    private final Map<String, String> idByInstruction = new HashMap<>();
    private final Map<String, Integer> asked = new HashMap<>();

    OracleModel(Path suite, List<String> ids) throws IOException {
        for (TaskSuite.Entry e : TaskSuite.load(List.of(suite), ids)) {
            oracleByInstruction.put(e.task().instruction(), e.task().json().get("oracle"));
            idByInstruction.put(e.task().instruction(), e.id());
        }
    }

    /** How many times the model was asked for task {@code id}. */
    synchronized int turns(String id) {
        return idByInstruction.entrySet().stream()
                .filter(e -> e.getValue().equals(id))
                .mapToInt(e -> asked.getOrDefault(e.getKey(), 0))
                .sum();
    }

    synchronized String answer(ProviderStub.RecordedRequest request) {
        String text = user(request.json());
        Matcher m = Pattern.compile("(?m)^Instruction: (.*)$").matcher(text);
        if (!m.find()) throw new AssertionError("no instruction in the request:\n" + text);
        String instruction = m.group(1);
        JsonNode oracle = oracleByInstruction.get(instruction);
        if (oracle == null) throw new AssertionError("no task has the instruction " + instruction);
        int n = asked.merge(instruction, 1, Integer::sum) - 1;
        if (n >= oracle.size()) return "{\"action\":\"done\",\"summary\":\"the oracle's steps are done\"}";
        ObjectNode step = oracle.get(n).deepCopy();
        if (step.has("target")) {
            JsonNode target = step.remove("target");
            step.put("uid", uid(text.substring(text.lastIndexOf("Observation:")), target));
        }
        return step.toString();
    }

    private static String uid(String observation, JsonNode selector) {
        String role = Roles.abbreviate(selector.path("role").asText());
        String name = selector.hasNonNull("name") ? selector.get("name").asText() : null;
        int index = selector.path("index").asInt(0);
        int seen = 0;
        for (String line : observation.split("\n")) {
            Matcher m = LINE.matcher(line);
            if (!m.matches() || !m.group(2).equals(role)) continue;
            if (name != null && !name.equals(m.group(3))) continue;
            if (seen++ == index) return m.group(1);
        }
        throw new AssertionError("no element " + selector + " in the observation:\n" + observation);
    }

    /** The user message's text (the instruction and the observation), from the chat request. */
    private static String user(JsonNode body) {
        StringBuilder out = new StringBuilder();
        for (JsonNode message : body.path("messages")) {
            if (!message.path("role").asText().equals("user")) continue;
            JsonNode content = message.get("content");
            if (content.isTextual()) out.append(content.asText()).append('\n');
            else content.forEach(part -> out.append(part.path("text").asText()).append('\n'));
        }
        return out.toString();
    }
}
