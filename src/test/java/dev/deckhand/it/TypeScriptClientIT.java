package dev.deckhand.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A client Deckhand did not write: the official TypeScript MCP SDK (src/test/mcp-client, installed by
 * scripts/test.sh with {@code npm ci}) connects over both transports, lists the tools and calls {@code computer}.
 */
@Tag("e2e")
class TypeScriptClientIT {

    private static final Path CLIENT = Path.of("test/mcp-client");

    @Test
    void sdkClientOverStreamableHttp() throws Exception {
        try (PackagedApp app = PackagedApp.startHttp()) {
            JsonNode seen = runClient(
                    List.of("http", app.mcpUrl(), app.home.resolve("mcp-token").toString()), null, 0);
            assertSaw(seen, "http");
        }
    }

    @Test
    void sdkClientOverStdio() throws Exception {
        Path home = Files.createTempDirectory("deckhand-ts-stdio");
        List<String> args = new ArrayList<>(List.of("stdio"));
        args.addAll(PackagedApp.command("stdio"));
        assertSaw(runClient(args, home, PackagedApp.freePort()), "stdio");
    }

    private static void assertSaw(JsonNode seen, String transport) {
        assertEquals(transport, seen.path("transport").asText());
        assertEquals("deckhand", seen.path("server").asText());
        assertEquals("[\"computer\"]", seen.path("tools").toString());
        assertTrue(seen.path("annotations").path("destructiveHint").asBoolean());
        assertTrue(seen.path("annotations").path("openWorldHint").asBoolean());
        assertEquals("[\"instruction\"]", seen.path("required").toString());
        assertEquals(
                "[\"runId\",\"outcome\",\"verdict\",\"stepsRun\",\"summary\",\"usage\"]",
                seen.path("outputRequired").toString(),
                "the tool declares its outputSchema and the SDK validated the result");
        assertEquals(0, seen.path("usage").path("modelTurns").asInt(-1));
        assertTrue(seen.path("isError").asBoolean());
        assertEquals("NO_GRANT", seen.path("code").asText());
        assertTrue(seen.path("text").asText().contains("NO_GRANT"));
    }

    private static JsonNode runClient(List<String> args, Path home, int port) throws Exception {
        if (!Files.isDirectory(CLIENT.resolve("node_modules/@modelcontextprotocol/sdk"))) {
            throw new IllegalStateException("the TypeScript MCP SDK is not installed; run scripts/test.sh "
                    + "(it runs 'npm ci' in src/test/mcp-client)");
        }
        List<String> cmd = new ArrayList<>(List.of("node", "client.mjs"));
        cmd.addAll(args);
        Path out = Files.createTempFile("ts-client", ".out");
        Path err = Files.createTempFile("ts-client", ".err");
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .directory(CLIENT.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        if (home != null) PackagedApp.environment(pb.environment(), home, port);
        Process p = pb.start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("the SDK client did not finish: " + Files.readString(err));
        }
        assertEquals(0, p.exitValue(), () -> "client failed: " + readQuietly(err));
        return new ObjectMapper().readTree(Files.readString(out).trim());
    }

    private static String readQuietly(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }
}
