package dev.deckhand.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.home.DeckhandHome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("pure")
class ModelBindingStoreTest {

    static final String KEY = "sk-store-test-abcdefghijklmnop-WXYZ";

    @TempDir
    Path dir;

    @Test
    void theBindingGoesToModelJsonAndTheKeyToItsOwn0600File() throws IOException {
        ModelBindingStore store = new ModelBindingStore(dir);
        assertEquals(Optional.empty(), store.binding());
        assertTrue(store.save(new ModelBinding("openai", "gpt-4.1-mini", null, 0.2, 400), ApiKey.of(KEY)));

        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(store.keyFile())));
        assertEquals(KEY, Files.readString(store.keyFile()).strip());
        String json = Files.readString(store.bindingFile());
        assertFalse(json.contains(KEY), "model.json holds no key");
        assertTrue(json.contains("\"providerId\" : \"openai\""), json);

        ModelBindingStore reread = new ModelBindingStore(dir);
        assertEquals(
                new ModelBinding("openai", "gpt-4.1-mini", null, 0.2, 400),
                reread.binding().orElseThrow());
        assertEquals(KEY, reread.apiKey().orElseThrow().reveal());
    }

    @Test
    void aKeyFileLooserThan0600IsTightenedBeforeUse() throws IOException {
        ModelBindingStore store = new ModelBindingStore(dir);
        store.save(ModelBinding.of("anthropic", "claude-sonnet-4-5", null), ApiKey.of(KEY));
        Files.setPosixFilePermissions(store.keyFile(), PosixFilePermissions.fromString("rw-r--r--"));
        store.apiKey();
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(store.keyFile())));
    }

    @Test
    void anAbsentKeyKeepsTheStoredOneForTheSameEndpointAndForgetsItForAnother() {
        ModelBindingStore store = new ModelBindingStore(dir);
        store.save(ModelBinding.of("openai", "gpt-4.1", null), ApiKey.of(KEY));
        assertTrue(store.save(ModelBinding.of("openai", "gpt-4.1-mini", null), null), "same endpoint: kept");
        assertEquals(KEY, store.apiKey().orElseThrow().reveal());

        assertFalse(
                store.save(ModelBinding.of("openai-compatible", "local", "http://127.0.0.1:9/v1"), null),
                "another endpoint never receives the old key");
        assertEquals(Optional.empty(), store.apiKey());
    }

    @Test
    void clearForgetsBindingAndKey() {
        ModelBindingStore store = new ModelBindingStore(dir);
        store.save(ModelBinding.of("gemini", "gemini-2.5-flash", null), ApiKey.of(KEY));
        store.clear();
        assertEquals(Optional.empty(), store.binding());
        assertEquals(Optional.empty(), store.apiKey());
    }

    @Test
    void anInvalidModelJsonIsReportedNamingTheFile() throws IOException {
        Files.writeString(dir.resolve(DeckhandHome.MODEL_BINDING), "{\"providerId\":\"skynet\",\"modelId\":\"x\"}");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new ModelBindingStore(dir).binding());
        assertTrue(e.getMessage().contains("model.json") && e.getMessage().contains("providerId"), e.getMessage());
    }

    @Test
    void theKeyNeverShowsInToStringAndIsMaskedToItsLastFour() {
        ApiKey key = ApiKey.of(KEY);
        assertFalse(key.toString().contains(KEY));
        assertEquals("••••WXYZ", key.masked());
        assertEquals("••••", ApiKey.of("short-key").masked(), "a short key shows nothing");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ApiKey.of("has space " + KEY));
        assertFalse(e.getMessage().contains(KEY));
        assertTrue(e.getMessage().startsWith("apiKey"));
    }

    @Test
    void bindingValidationNamesTheField() {
        assertTrue(message(() -> ModelBinding.of("skynet", "m", null)).startsWith("providerId"));
        assertTrue(message(() -> ModelBinding.of("openai", " ", null)).startsWith("modelId"));
        assertTrue(
                message(() -> ModelBinding.of("openai-compatible", "m", null)).startsWith("baseUrl"));
        assertTrue(message(() -> ModelBinding.of("openai", "m", "ftp://x")).startsWith("baseUrl"));
        assertTrue(message(() -> ModelBinding.of("openai", "m", "https://user:pw@x/v1"))
                .startsWith("baseUrl"));
        assertTrue(
                message(() -> new ModelBinding("openai", "m", null, 3.0, null)).startsWith("temperature"));
        assertTrue(message(() -> new ModelBinding("openai", "m", null, null, 0)).startsWith("maxOutputTokens"));
        assertEquals(
                "http://127.0.0.1:11434",
                ModelBinding.of("ollama", "llava", null).effectiveBaseUrl());
        assertEquals(
                "http://h:1/v1",
                ModelBinding.of("openai-compatible", "m", "http://h:1/v1/").effectiveBaseUrl());
    }

    @Test
    void everyProviderHasAnIdAndOnlyTheCompatibleOneLacksADefaultUrl() {
        for (Provider p : Provider.values()) {
            assertEquals(p, Provider.byId(p.id()).orElseThrow());
            assertEquals(p == Provider.OPENAI_COMPATIBLE, p.defaultBaseUrl().isEmpty(), p.id());
        }
    }

    @Test
    void theTurnsToStringShowsLengthsOnly() {
        ModelTurn turn = ModelTurn.of("sys", "type the password hunter2", "{}").withImage(new byte[] {1, 2, 3});
        assertFalse(turn.toString().contains("hunter2"));
        assertTrue(turn.toString().contains("image=3 bytes"));
    }

    private static String message(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }
}
