package dev.deckhand.security;

import static io.restassured.RestAssured.given;

import dev.deckhand.home.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every owner endpoint that takes a body answers 400 to {@code null} and to every other non-object
 * body (an array, a number, a string, a boolean), never 500 ({@code PUT /api/policy} with
 * {@code null} was a 500). Table-driven over the endpoints and the bodies.
 */
@QuarkusTest
@Tag("app")
class OwnerBodiesTest {

    private record Endpoint(String method, String path) {}

    private static final List<Endpoint> ENDPOINTS = List.of(
            new Endpoint("PUT", "/api/policy"),
            new Endpoint("POST", "/api/grants"),
            new Endpoint("PATCH", "/api/grants/g-none"),
            new Endpoint("POST", "/api/approvals/a-none"),
            new Endpoint("PUT", "/api/model"));

    private static final List<String> BODIES = List.of("null", "[]", "[{}]", "42", "\"policy\"", "true", "{");

    @Test
    void nullAndNonObjectBodiesAre400OnEveryOwnerEndpoint() {
        for (Endpoint e : ENDPOINTS) {
            for (String body : BODIES) {
                int status = given().header("Authorization", "Bearer " + TestTokens.read("owner-token"))
                        .contentType("application/json")
                        .body(body)
                        .request(e.method(), e.path())
                        .statusCode();
                if (status != 400) {
                    throw new AssertionError(
                            e.method() + " " + e.path() + " with body " + body + " answered " + status);
                }
            }
        }
    }
}
