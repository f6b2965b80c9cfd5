package dev.deckhand.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code deckhand eval}'s flags: strict, every error naming the flag (Main exits 64 with the usage). */
@Tag("pure")
class EvalOptionsTest {

    @Test
    void defaultsAreTheTasksFolderOneAtATimeAndTheBoundModel() {
        EvalOptions o = EvalOptions.parse(List.of());
        assertEquals(List.of(Path.of("tasks")), o.tasks());
        assertEquals(1, o.parallel());
        assertEquals(1, o.repeat());
        assertEquals(false, o.oracle());
        assertEquals(Optional.empty(), o.provider());
        assertEquals(Optional.empty(), o.out());
    }

    @Test
    void readsEveryFlag() {
        EvalOptions o = EvalOptions.parse(List.of(
                "--tasks",
                "a",
                "--tasks",
                "b",
                "--only",
                "mousepad-*",
                "--only",
                "yad-*",
                "--model",
                "openai-compatible:llama3:8b",
                "--base-url",
                "http://127.0.0.1:9/v1",
                "--parallel",
                "2",
                "--repeat",
                "3",
                "--out",
                "/tmp/r"));
        assertEquals(List.of(Path.of("a"), Path.of("b")), o.tasks());
        assertEquals(List.of("mousepad-*", "yad-*"), o.only());
        assertEquals(Optional.of("openai-compatible"), o.provider());
        assertEquals(Optional.of("llama3:8b"), o.model(), "the model id may itself hold a colon");
        assertEquals(Optional.of("http://127.0.0.1:9/v1"), o.baseUrl());
        assertEquals(2, o.parallel());
        assertEquals(3, o.repeat());
        assertEquals(Optional.of(Path.of("/tmp/r")), o.out());
        assertTrue(EvalOptions.parse(List.of("--oracle")).oracle());
    }

    @Test
    void refusesBadFlagsNamingThem() {
        assertEquals("unknown flag --paralel", msg("--paralel", "2"));
        assertEquals("unexpected argument 'tasks'", msg("tasks"));
        assertEquals("--parallel needs an integer in 1..16, was '0'", msg("--parallel", "0"));
        assertEquals("--parallel needs an integer in 1..16, was '17'", msg("--parallel", "17"));
        assertEquals("--repeat needs an integer in 1..100, was 'x'", msg("--repeat", "x"));
        assertEquals("--parallel is given twice", msg("--parallel", "1", "--parallel", "2"));
        assertEquals("--oracle is given twice", msg("--oracle", "--oracle"));
        assertEquals("--out needs a value", msg("--out"));
        assertEquals("--out needs a value", msg("--out", " "));
        assertEquals("--oracle and --model exclude each other", msg("--oracle", "--model", "openai:gpt-4.1"));
        assertEquals("--base-url needs --model", msg("--base-url", "http://127.0.0.1:1"));
        assertEquals("--model needs PROVIDER:MODEL, e.g. openai:gpt-4.1, was 'gpt-4.1'", msg("--model", "gpt-4.1"));
        assertEquals("--model needs PROVIDER:MODEL, e.g. openai:gpt-4.1, was 'openai:'", msg("--model", "openai:"));
        assertTrue(msg("--model", "acme:m1").startsWith("--model's provider must be one of openai, anthropic"));
        assertEquals("--model openai-compatible:... needs --base-url", msg("--model", "openai-compatible:m"));
        assertTrue(msg("--only", "[a").startsWith("--only is not a glob"));
    }

    @Test
    void aShardNeedsItsOutFolderAndIsReadStrictly() {
        EvalOptions o = EvalOptions.parse(List.of("--shard", "2/3", "--out", "/tmp/s2", "--oracle"));
        assertEquals(Optional.of(new Shard(2, 3)), o.shard());
        assertEquals(Optional.empty(), EvalOptions.parse(List.of()).shard());
        assertEquals(
                "--shard needs --out DIR: a shard's report is merged from there (deckhand eval merge)",
                msg("--shard", "0/3"));
        assertEquals("--shard is given twice", msg("--shard", "0/3", "--shard", "1/3", "--out", "o"));
        assertEquals("--shard's I must be in 0..2 (0-based), was 3", msg("--shard", "3/3", "--out", "o"));
        assertEquals("--shard needs I/N, e.g. 0/3 (0-based), was '1-3'", msg("--shard", "1-3", "--out", "o"));
    }

    @Test
    void theUsageNamesEveryFlagAndTheExitCodes() {
        for (String flag :
                List.of("--tasks", "--only", "--oracle", "--model", "--base-url", "--parallel", "--repeat", "--out")) {
            assertTrue(EvalOptions.usage().contains(flag), flag);
        }
        assertTrue(EvalOptions.usage().contains("64 usage"));
    }

    private static String msg(String... args) {
        return assertThrows(EvalOptions.UsageException.class, () -> EvalOptions.parse(List.of(args)))
                .getMessage();
    }
}
