package dev.deckhand.presence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The voice line: fixed sentences, never blocking, and a real espeak-ng recording that sox measures. */
@Tag("app")
class VoiceLineTest {

    @Test
    void sentencesAreFixedWordsAndTheOutcomeOnly() {
        for (Outcome.Kind o : Outcome.Kind.values()) {
            String line = VoiceLine.finished(o);
            assertTrue(line.matches("Deckhand has (finished|stopped)[a-z :]*\\."), line);
        }
        assertEquals("Deckhand has finished: timed out.", VoiceLine.finished(Outcome.Kind.TIMED_OUT));
    }

    @Test
    void speakingNeverBlocksTheCaller() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (VoiceLine voice = new VoiceLine(
                List.of("say", "{text}"),
                (argv, bound) -> {
                    try {
                        release.await(5, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return new CommandRunner.Result(0, "");
                },
                Duration.ofSeconds(5))) {
            long t0 = System.nanoTime();
            for (int i = 0; i < 20; i++) voice.say(VoiceLine.STARTING); // a stuck speaker: extra lines drop
            assertTrue(System.nanoTime() - t0 < Duration.ofMillis(200).toNanos(), "say returns at once");
            release.countDown();
        }
    }

    @Test
    void espeakRecordsANonSilentLine() throws Exception {
        Path wav = Files.createTempDirectory("deckhand-voice").resolve("line.wav");
        try (VoiceLine voice = new VoiceLine(
                List.of("espeak-ng", "-w", wav.toString(), "--", "{text}"),
                CommandRunner.PROCESSES,
                Duration.ofSeconds(20))) {
            CommandRunner.Result r = voice.say(VoiceLine.STARTING).orElseThrow().get(30, TimeUnit.SECONDS);
            assertTrue(r.ok(), "espeak-ng ran: " + r.output());
        }
        assertTrue(Files.size(wav) > 1000, "a WAV was written");
        CommandRunner.Result stat =
                CommandRunner.PROCESSES.run(List.of("sox", wav.toString(), "-n", "stat"), Duration.ofSeconds(20));
        assertTrue(stat.ok(), stat.output());
        double length = number(stat.output(), "Length \\(seconds\\)");
        double rms = number(stat.output(), "RMS\\s+amplitude");
        double max = number(stat.output(), "Maximum amplitude");
        System.out.printf("voice line: %.2f s, RMS amplitude %.4f, maximum amplitude %.4f%n", length, rms, max);
        assertTrue(length > 0.5, "the line lasts: " + length);
        assertTrue(rms > 0.01, "the line is not silence: RMS " + rms);
        Path docs = Path.of("target", "presence-voice.wav");
        Files.copy(wav, docs, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static double number(String statOutput, String label) {
        Matcher m = Pattern.compile(label + ":\\s+(-?[0-9.]+)").matcher(statOutput);
        if (!m.find()) throw new AssertionError("no " + label + " in sox output:\n" + statOutput);
        return Double.parseDouble(m.group(1));
    }
}
