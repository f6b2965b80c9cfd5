package dev.deckhand.model;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.deckhand.home.DeckhandHome;
import dev.deckhand.home.TestTokens;
import dev.deckhand.model.stub.OpenAiStub;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code /api/model} through the real HTTP stack, with the owner token. */
@QuarkusTest
@Tag("app")
class ModelResourceTest {

    static final String KEY = "sk-rest-test-0123456789abcdef-LAST";
    static final Path HOME = Path.of("target/test-home");

    OpenAiStub stub;

    @BeforeEach
    void start() throws IOException {
        unbind();
        stub = OpenAiStub.start();
    }

    @AfterEach
    void stop() throws IOException {
        stub.close();
        unbind();
    }

    static void unbind() throws IOException {
        Files.deleteIfExists(HOME.resolve(DeckhandHome.MODEL_BINDING));
        Files.deleteIfExists(HOME.resolve(DeckhandHome.MODEL_API_KEY));
        Files.deleteIfExists(HOME.resolve(DeckhandHome.MODEL_APPS));
        Files.deleteIfExists(HOME.resolve(DeckhandHome.MODEL_PRICES));
    }

    static RequestSpecification owner() {
        return given().header("Authorization", "Bearer " + TestTokens.read("owner-token"));
    }

    String binding(String apiKey) {
        return "{\"providerId\":\"openai\",\"modelId\":\"gpt-test\",\"baseUrl\":\"" + stub.url() + "\""
                + (apiKey == null ? "" : ",\"apiKey\":\"" + apiKey + "\"") + "}";
    }

    @Test
    void perAppBindingsAndThePriceTableAreOptionalAndKept() {
        owner().contentType("application/json")
                .body(binding(KEY))
                .put("/api/model")
                .then()
                .statusCode(200)
                .body("apps.size()", equalTo(0))
                .body("prices.'gpt-4o'.inputPerMTok", equalTo(2.5f));
        String body = "{\"providerId\":\"openai\",\"modelId\":\"gpt-test\",\"baseUrl\":\"" + stub.url() + "\","
                + "\"apps\":{\"Mousepad\":{\"providerId\":\"ollama\",\"modelId\":\"llava\"}},"
                + "\"prices\":{\"gpt-test\":{\"inputPerMTok\":1.5,\"outputPerMTok\":6}}}";
        owner().contentType("application/json")
                .body(body)
                .put("/api/model")
                .then()
                .statusCode(200)
                .body("apps.Mousepad.modelId", equalTo("llava"))
                .body("apps.Mousepad.providerId", equalTo("ollama"))
                .body("prices.'gpt-test'.outputPerMTok", equalTo(6))
                .body("prices.'gpt-4o'", nullValue())
                .body("apiKeySet", equalTo(true));
        // a PUT without apps or prices leaves both as they are
        owner().contentType("application/json")
                .body(binding(null))
                .put("/api/model")
                .then()
                .statusCode(200)
                .body("apps.Mousepad.modelId", equalTo("llava"))
                .body("prices.'gpt-test'.inputPerMTok", equalTo(1.5f));
        owner().contentType("application/json")
                .body("{\"providerId\":\"openai\",\"modelId\":\"m\","
                        + "\"apps\":{\"Mousepad\":{\"providerId\":\"nope\",\"modelId\":\"m\"}}}")
                .put("/api/model")
                .then()
                .statusCode(400)
                .body("field", equalTo("apps.Mousepad.providerId"));
        owner().contentType("application/json")
                .body("{\"providerId\":\"openai\",\"modelId\":\"m\","
                        + "\"prices\":{\"m\":{\"inputPerMTok\":-1,\"outputPerMTok\":1}}}")
                .put("/api/model")
                .then()
                .statusCode(400)
                .body("field", equalTo("prices.m.inputPerMTok"));
        owner().contentType("application/json")
                .body("{\"providerId\":\"openai\",\"modelId\":\"m\","
                        + "\"apps\":{\"Mousepad\":{\"providerId\":\"ollama\",\"modelId\":\"m\",\"apiKey\":\"x\"}}}")
                .put("/api/model")
                .then()
                .statusCode(400)
                .body("field", equalTo("apps.Mousepad.apiKey"));
    }

    @Test
    void unboundAtFirst() {
        owner().get("/api/model")
                .then()
                .statusCode(200)
                .body("bound", equalTo(false))
                .body("apiKeySet", equalTo(false))
                .body("providers.'openai-compatible'.baseUrlRequired", equalTo(true));
    }

    @Test
    void putStoresTheKeyWriteOnlyAndGetNeverReturnsIt() throws IOException {
        String put = owner().contentType("application/json")
                .body(binding(KEY))
                .put("/api/model")
                .then()
                .statusCode(200)
                .body("bound", equalTo(true))
                .body("apiKeySet", equalTo(true))
                .body("apiKey", equalTo("••••LAST"))
                .extract()
                .asString();
        assertFalse(put.contains(KEY));
        String get = owner().get("/api/model")
                .then()
                .statusCode(200)
                .body("providerId", equalTo("openai"))
                .body("modelId", equalTo("gpt-test"))
                .body("baseUrl", equalTo(stub.url()))
                .extract()
                .asString();
        assertFalse(get.contains(KEY), get);
        assertFalse(get.contains(KEY.substring(0, 20)), get);

        Path keyFile = HOME.resolve(DeckhandHome.MODEL_API_KEY);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keyFile)));
        assertEquals(KEY, Files.readString(keyFile).strip());
        assertFalse(Files.readString(HOME.resolve(DeckhandHome.MODEL_BINDING)).contains(KEY));

        // Absent apiKey keeps the stored one; "" clears it.
        owner().contentType("application/json")
                .body(binding(null))
                .put("/api/model")
                .then()
                .statusCode(200)
                .body("apiKeySet", equalTo(true));
        owner().contentType("application/json")
                .body(binding(""))
                .put("/api/model")
                .then()
                .statusCode(200)
                .body("apiKeySet", equalTo(false))
                .body("apiKey", nullValue());
    }

    @Test
    void validationErrorsAre400NamingTheField() {
        owner().contentType("application/json")
                .body("{\"providerId\":\"skynet\",\"modelId\":\"m\"}")
                .put("/api/model")
                .then()
                .statusCode(400)
                .body("field", equalTo("providerId"))
                .body("detail", containsString("openai"));
        owner().contentType("application/json")
                .body("{\"providerId\":\"openai-compatible\",\"modelId\":\"m\"}")
                .put("/api/model")
                .then()
                .statusCode(400)
                .body("field", equalTo("baseUrl"));
        owner().contentType("application/json")
                .body("{\"providerId\":\"openai\"}")
                .put("/api/model")
                .then()
                .statusCode(400)
                .body("field", equalTo("modelId"));
        owner().contentType("application/json")
                .body("{\"providerId\":\"openai\",\"modelId\":\"m\",\"temperature\":\"hot\"}")
                .put("/api/model")
                .then()
                .statusCode(400)
                .body("field", equalTo("temperature"));
        owner().contentType("application/json")
                .body("{\"providerId\":\"openai\",\"modelId\":\"m\",\"apiKey\":\"a b\"}")
                .put("/api/model")
                .then()
                .statusCode(400)
                .body("field", equalTo("apiKey"))
                .body("detail", not(containsString("a b")));
        owner().contentType("application/json")
                .body("{\"providerId\":\"openai\",\"modelId\":\"m\",\"extra\":1}")
                .put("/api/model")
                .then()
                .statusCode(400)
                .body("field", equalTo("extra"));
        owner().get("/api/model").then().body("bound", equalTo(false));
    }

    @Test
    void testConnectionPassesAndFailsWithTheProvidersMessageVerbatim() {
        owner().contentType("application/json")
                .body(binding(KEY))
                .put("/api/model")
                .then()
                .statusCode(200);
        stub.enqueue("{\"action\":\"click\",\"uid\":\"u2\"}");
        owner().post("/api/model/test")
                .then()
                .statusCode(200)
                .body("ok", equalTo(true))
                .body("error", nullValue());
        assertEquals("Bearer " + KEY, stub.lastRequest().header("Authorization"));

        stub.enqueueError(401, "Incorrect API key provided: sk-rest-***LAST.");
        owner().post("/api/model/test")
                .then()
                .statusCode(200)
                .body("ok", equalTo(false))
                .body("error", equalTo("Incorrect API key provided: sk-rest-***LAST."));
    }

    @Test
    void testConnectionWithoutABindingSaysSoWithoutCalling() {
        owner().post("/api/model/test")
                .then()
                .statusCode(200)
                .body("ok", equalTo(false))
                .body("error", containsString("no model is bound"));
        assertEquals(0, stub.requests().size());
    }

    @Test
    void theMcpTokenCannotReadOrWriteTheBinding() {
        given().header("Authorization", "Bearer " + TestTokens.read("mcp-token"))
                .get("/api/model")
                .then()
                .statusCode(401);
        given().get("/api/model").then().statusCode(401);
    }
}
