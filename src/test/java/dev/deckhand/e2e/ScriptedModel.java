package dev.deckhand.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.deckhand.model.stub.ProviderStub;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What a scripted model reads from the observation Deckhand sent it (any provider's wire format). */
final class ScriptedModel {

    private static final Pattern EDITABLE_TEXT = Pattern.compile("(?m)^\\s*(u[0-9A-Za-z]{3,16}) txt\\b");

    private ScriptedModel() {}

    /** Every string in the request, joined: the prompt, the observation, the schema. */
    static String text(ProviderStub.RecordedRequest request) {
        StringBuilder out = new StringBuilder();
        collect(request.json(), out);
        return out.toString();
    }

    private static void collect(JsonNode node, StringBuilder out) {
        if (node.isTextual()) {
            out.append(node.asText()).append('\n');
        } else {
            node.elements().forEachRemaining(n -> collect(n, out));
        }
    }

    /** The uid of the first text element in the observation (the editor; the compact form implies editable). */
    static String editorUid(ProviderStub.RecordedRequest request) {
        Matcher m = EDITABLE_TEXT.matcher(text(request));
        if (!m.find()) throw new AssertionError("no editable text element in the observation:\n" + text(request));
        return m.group(1);
    }
}
