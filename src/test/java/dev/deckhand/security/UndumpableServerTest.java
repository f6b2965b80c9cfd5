package dev.deckhand.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.deckhand.platform.linux.Undumpable;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Round 3 of the review read the owner token, the model's API key and a browser session out of the server's memory
 * from a granted terminal ({@code /proc/PID/mem}). Once the server has started, its process is not dumpable: the
 * kernel then refuses that read, and a debugger's attach, to every other process of the same user (root and
 * {@code CAP_SYS_PTRACE} excepted, docs/security.md).
 */
@QuarkusTest
@Tag("app")
class UndumpableServerTest {

    @Test
    void theStartedServersProcessIsNotDumpable() {
        RestAssured.given().get("/health").then().statusCode(200);
        assertEquals(0, Undumpable.dumpable(), "prctl(PR_GET_DUMPABLE) of the server's process");
    }
}
