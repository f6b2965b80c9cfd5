package dev.deckhand.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.deckhand.home.DeckhandHome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where reports live: {@code --out DIR} and {@code $DECKHAND_HOME/eval/<started>-<mode or model>/}
 * (each {@code report.json} + {@code report.md}), which the web page's Evaluations view lists.
 */
public final class ReportStore {

    /** The page lists at most this many reports, newest first. */
    public static final int MAX_LISTED = 50;

    static final long MAX_REPORT_BYTES = 8L << 20;

    static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(SerializationFeature.INDENT_OUTPUT);

    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private ReportStore() {}

    /** Writes {@code report.json} and {@code report.md} into {@code dir} (created). */
    public static void write(Path dir, EvalReport report, String markdown) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("report.json"), JSON.writeValueAsString(report) + "\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("report.md"), markdown, StandardCharsets.UTF_8);
    }

    /** Keeps the report under {@code $DECKHAND_HOME/eval/}; the folder it went to. */
    static Path keep(DeckhandHome home, EvalReport report, String markdown) throws IOException {
        EvalReport.Totals t = report.totals();
        String who = t.model() == null ? t.mode() : t.provider() + "-" + t.model();
        String base = STAMP.format(t.startedAt()) + "-" + who.replaceAll("[^A-Za-z0-9._-]+", "_");
        Path root = home.file(DeckhandHome.EVAL_REPORTS);
        Path dir = root.resolve(base);
        for (int n = 2; Files.exists(dir); n++) dir = root.resolve(base + "-" + n);
        write(dir, report, markdown);
        return dir;
    }

    /** A stored report as the page shows it. */
    public record Stored(String name, JsonNode report) {}

    /** The stored reports, newest first (at most {@value #MAX_LISTED}); unreadable ones are skipped. */
    public static List<Stored> list(Path home) {
        Path root = home.resolve(DeckhandHome.EVAL_REPORTS);
        List<Stored> out = new ArrayList<>();
        if (!Files.isDirectory(root)) return out;
        List<Path> dirs;
        try (Stream<Path> s = Files.list(root)) {
            dirs = s.filter(Files::isDirectory)
                    .sorted(Comparator.comparing((Path p) -> p.getFileName().toString())
                            .reversed())
                    .toList();
        } catch (IOException e) {
            return out;
        }
        for (Path d : dirs) {
            if (out.size() >= MAX_LISTED) break;
            Path f = d.resolve("report.json");
            try {
                if (!Files.isRegularFile(f) || Files.size(f) > MAX_REPORT_BYTES) continue;
                JsonNode n = JSON.readTree(f.toFile());
                if (n != null && n.path("tasks").isArray() && n.path("totals").isObject()) {
                    out.add(new Stored(d.getFileName().toString(), n));
                }
            } catch (IOException unreadable) {
                // a report being written or damaged: not listed
            }
        }
        return out;
    }
}
