package dev.deckhand.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The owner API for the model binding (docs/design.md#owner-boundary; {@code HttpGuard} demands the owner token on
 * {@code /api/}). The API key is write-only: responses say whether one is set and show it masked.
 *
 * <ul>
 *   <li>{@code GET /api/model} → {@code {bound, providerId, modelId, baseUrl, effectiveBaseUrl, temperature,
 *       maxOutputTokens, apiKeySet, apiKey: "••••last4"|null, providers}}</li>
 *   <li>{@code PUT /api/model} {@code {providerId, modelId, baseUrl?, temperature?, maxOutputTokens?, apiKey?}}:
 *       {@code apiKey} absent or null keeps the stored key (forgotten if provider or base URL changed),
 *       {@code ""} clears it; 400 {@code {error, field, detail}} naming the field</li>
 *   <li>{@code POST /api/model/test} → {@code {ok, error?}}: one small real call with the stored binding</li>
 * </ul>
 */
@Path("/api/model")
@Produces(MediaType.APPLICATION_JSON)
public class ModelResource {

    private static final Set<String> FIELDS =
            Set.of("providerId", "modelId", "baseUrl", "temperature", "maxOutputTokens", "apiKey", "apps", "prices");
    private static final Set<String> APP_FIELDS =
            Set.of("providerId", "modelId", "baseUrl", "temperature", "maxOutputTokens");
    private static final Set<String> PRICE_FIELDS = Set.of("inputPerMTok", "outputPerMTok");

    @Inject
    ModelBindingStore store;

    @Inject
    BoundModelClient client;

    @GET
    public Response get() {
        Optional<ModelBinding> binding;
        try {
            binding = store.binding();
        } catch (IllegalStateException invalid) {
            return Response.ok(view(Optional.empty(), invalid.getMessage())).build();
        }
        return Response.ok(view(binding, null)).build();
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public Response put(JsonNode body) {
        if (body == null || !body.isObject()) return invalid("body", "body must be a JSON object");
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!FIELDS.contains(field)) return invalid(field, "unknown field '" + clip(field) + "'");
        }
        ModelBinding binding;
        ApiKey key = null;
        boolean clearKey = false;
        Map<String, ModelBinding> apps = null;
        PriceTable prices = null;
        try {
            binding = binding(body, "");
            String apiKey = text(body, "apiKey");
            if (apiKey != null && apiKey.isEmpty()) clearKey = true;
            else if (apiKey != null) key = ApiKey.of(apiKey);
            if (body.hasNonNull("apps")) apps = apps(body.get("apps"));
            if (body.hasNonNull("prices")) prices = prices(body.get("prices"));
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            return invalid(message.split(" ", 2)[0], message);
        }
        store.save(binding, key);
        if (clearKey) store.clearApiKey();
        if (apps != null) store.saveAppBindings(apps);
        if (prices != null) store.savePrices(prices);
        return get();
    }

    /** One binding's fields; {@code prefix} names where it sits ("" or "apps.<app>.") in an error. */
    private static ModelBinding binding(JsonNode node, String prefix) {
        try {
            return new ModelBinding(
                    text(node, "providerId"),
                    text(node, "modelId"),
                    text(node, "baseUrl"),
                    number(node, "temperature"),
                    integer(node, "maxOutputTokens"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(prefix + e.getMessage());
        }
    }

    /** {@code apps}: {@code {"<WM_CLASS>": {providerId, modelId, baseUrl?, temperature?, maxOutputTokens?}}}. */
    private static Map<String, ModelBinding> apps(JsonNode apps) {
        if (!apps.isObject()) throw new IllegalArgumentException("apps must be an object of app class to binding");
        Map<String, ModelBinding> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : apps.properties()) {
            String app = e.getKey();
            if (app.isBlank() || app.length() > 200 || !app.matches("[\\x21-\\x7e]+")) {
                throw new IllegalArgumentException(
                        "apps." + clip(app) + " is not an application class (1..200 printable characters, no spaces)");
            }
            JsonNode b = e.getValue();
            if (b == null || !b.isObject()) throw new IllegalArgumentException("apps." + app + " must be an object");
            for (Iterator<String> f = b.fieldNames(); f.hasNext(); ) {
                String field = f.next();
                if (!APP_FIELDS.contains(field))
                    throw new IllegalArgumentException("apps." + app + "." + clip(field) + " is not a binding field");
            }
            out.put(app, binding(b, "apps." + app + "."));
        }
        return out;
    }

    /** {@code prices}: {@code {"<modelId>": {inputPerMTok, outputPerMTok}}}, US dollars per million tokens. */
    private static PriceTable prices(JsonNode prices) {
        if (!prices.isObject()) throw new IllegalArgumentException("prices must be an object of model id to price");
        Map<String, PriceTable.Price> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : prices.properties()) {
            String model = e.getKey();
            JsonNode p = e.getValue();
            if (p == null || !p.isObject())
                throw new IllegalArgumentException("prices." + clip(model) + " must be an object");
            for (Iterator<String> f = p.fieldNames(); f.hasNext(); ) {
                String field = f.next();
                if (!PRICE_FIELDS.contains(field))
                    throw new IllegalArgumentException(
                            "prices." + clip(model) + "." + clip(field) + " is not a price field");
            }
            for (String field : PRICE_FIELDS) {
                JsonNode n = p.get(field);
                if (n == null || !n.isNumber() || n.decimalValue().signum() < 0) {
                    throw new IllegalArgumentException(
                            "prices." + clip(model) + "." + field + " must be a number >= 0");
                }
            }
            out.put(
                    model,
                    new PriceTable.Price(
                            p.get("inputPerMTok").decimalValue(),
                            p.get("outputPerMTok").decimalValue()));
        }
        return new PriceTable(out);
    }

    @POST
    @Path("/test")
    public Map<String, Object> test() {
        ConnectionCheck check = client.testConnection();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("ok", check.ok());
        if (!check.ok()) out.put("error", check.error());
        return out;
    }

    private Map<String, Object> view(Optional<ModelBinding> binding, String problem) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("bound", binding.isPresent());
        out.put("providerId", binding.map(ModelBinding::providerId).orElse(null));
        out.put("modelId", binding.map(ModelBinding::modelId).orElse(null));
        out.put("baseUrl", binding.map(ModelBinding::baseUrl).orElse(null));
        out.put("effectiveBaseUrl", binding.map(ModelBinding::effectiveBaseUrl).orElse(null));
        out.put("temperature", binding.map(ModelBinding::temperature).orElse(null));
        out.put("maxOutputTokens", binding.map(ModelBinding::maxOutputTokens).orElse(null));
        Optional<ApiKey> key = store.apiKey();
        out.put("apiKeySet", key.isPresent());
        out.put("apiKey", key.map(ApiKey::masked).orElse(null));
        if (problem != null) out.put("problem", problem);
        Map<String, Object> providers = new LinkedHashMap<>();
        for (Provider p : Provider.values()) {
            Map<String, Object> info = new LinkedHashMap<>();
            info.put("defaultBaseUrl", p.defaultBaseUrl().orElse(null));
            info.put("keyRequired", p.keyRequired());
            info.put("baseUrlRequired", p.defaultBaseUrl().isEmpty());
            providers.put(p.id(), info);
        }
        out.put("providers", providers);
        Map<String, Object> apps = new LinkedHashMap<>();
        try {
            store.appBindings().forEach((app, b) -> apps.put(app, b));
        } catch (IllegalStateException invalid) {
            out.put("appsProblem", invalid.getMessage());
        }
        out.put("apps", apps);
        try {
            out.put("prices", store.prices().prices());
        } catch (IllegalStateException invalid) {
            out.put("prices", Map.of());
            out.put("pricesProblem", invalid.getMessage());
        }
        return out;
    }

    private static String text(JsonNode body, String field) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) return null;
        if (!n.isTextual()) throw new IllegalArgumentException(field + " must be a string");
        return n.asText();
    }

    private static Double number(JsonNode body, String field) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) return null;
        if (!n.isNumber()) throw new IllegalArgumentException(field + " must be a number");
        return n.asDouble();
    }

    private static Integer integer(JsonNode body, String field) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) return null;
        if (!n.isIntegralNumber() || !n.canConvertToInt())
            throw new IllegalArgumentException(field + " must be an integer");
        return n.asInt();
    }

    private static Response invalid(String field, String detail) {
        ObjectNode out = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        out.put("error", "invalid_request");
        out.put("field", field);
        out.put("detail", detail);
        return Response.status(400).type(MediaType.APPLICATION_JSON).entity(out).build();
    }

    private static String clip(String s) {
        String printable = s.replaceAll("[^\\x20-\\x7e]", "?");
        return printable.length() > 40 ? printable.substring(0, 40) + "…" : printable;
    }
}
