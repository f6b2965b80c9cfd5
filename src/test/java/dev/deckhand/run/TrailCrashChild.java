package dev.deckhand.run;

import dev.deckhand.audit.ApprovalEvent;
import dev.deckhand.audit.AuditSettings;
import dev.deckhand.audit.AuditStore;
import dev.deckhand.audit.CrashAppender;
import dev.deckhand.audit.RunRecord;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.loop.ActionIntent;
import dev.deckhand.loop.ActionResult;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Child process for the audit crash test's trail case:
 * {@code TrailCrashChild <db> <key> <sealEvery> <tag> <side file> [events]}. Drives the real
 * {@link AuditTrail} over the store through {@link #program}: runs of one to three clicks, some with an
 * approval card, some ending refused, each closed by its run record. After {@code intent()} returns it
 * prints {@code ack <i>} (i = the event's index in the program); then it "acts" — appends {@code <i>} as
 * a line to the side file and forces it to disk, standing in for the desktop effect — and prints
 * {@code acted <i>}; then {@code result()}, which only defers. A card or a run record is appended and
 * acknowledged the same way. Exits when stdin closes or at the program's end.
 */
public final class TrailCrashChild {

    /** One event of the program, as the parent also reads it back from the database. */
    public record Event(String kind, String runId, int step, String detail) {
        public String label() {
            return kind + " " + runId + " " + step + " " + detail;
        }
    }

    /** The child's fixed sequence of events; the parent expects the database to hold a prefix of it. */
    public static List<Event> program(String tag, int events) {
        List<Event> p = new ArrayList<>();
        for (int r = 1; p.size() < events; r++) {
            String runId = "t" + tag + "-" + r;
            int steps = 1 + r % 3;
            for (int k = 1; k <= steps; k++) {
                p.add(new Event("intent", runId, k, "click"));
                if (r % 4 == 0 && k == 1) {
                    p.add(new Event("approval", runId, 0, "requested"));
                    p.add(new Event("approval", runId, 0, "approved"));
                }
                p.add(new Event("result", runId, k, r % 5 == 0 && k == steps ? "refused" : "done"));
            }
            p.add(new Event("run", runId, 0, r % 5 == 0 ? "refused" : "completed"));
        }
        return p.subList(0, events);
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = CrashAppender.protocol();

        Path db = Path.of(args[0]);
        Path key = Path.of(args[1]);
        int sealEvery = Integer.parseInt(args[2]);
        String tag = args[3];
        Path side = Path.of(args[4]);
        List<Event> program = program(tag, args.length > 5 ? Integer.parseInt(args[5]) : 20_000);
        try (AuditStore store =
                        AuditStore.open(db, key, AuditSettings.defaults().withSealEvery(sealEvery), Clock.systemUTC());
                FileChannel effects = FileChannel.open(
                        side, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            AuditTrail trail = new AuditTrail(store, "g-crash", 42, "galculator", r -> {});
            out.println("ready " + store.headSeq());
            for (int i = 0; i < program.size(); i++) {
                Event e = program.get(i);
                switch (e.kind()) {
                    case "intent" -> {
                        trail.intent(new ActionIntent(
                                e.runId(),
                                e.step(),
                                "click",
                                Optional.of("u" + e.step()),
                                Optional.of("push button"),
                                OptionalInt.empty(),
                                1));
                        out.println("ack " + i);
                        effects.write(ByteBuffer.wrap((i + "\n").getBytes(StandardCharsets.US_ASCII)));
                        effects.force(true);
                        out.println("acted " + i);
                    }
                    case "result" ->
                        trail.result(
                                e.detail().equals("done")
                                        ? new ActionResult(
                                                e.runId(),
                                                e.step(),
                                                "click",
                                                ActionResult.Status.DELIVERED,
                                                Optional.empty(),
                                                "delivered")
                                        : new ActionResult(
                                                e.runId(),
                                                e.step(),
                                                "click",
                                                ActionResult.Status.REFUSED,
                                                Optional.of(RefusalCode.OUT_OF_SCOPE),
                                                "not in the tree"));
                    case "approval" -> {
                        store.append(new ApprovalEvent(
                                e.detail().equals("requested")
                                        ? ApprovalEvent.State.REQUESTED
                                        : ApprovalEvent.State.APPROVED,
                                "a-" + e.runId(),
                                e.runId(),
                                "g-crash",
                                1,
                                1));
                        out.println("ack " + i);
                    }
                    case "run" -> {
                        Instant now = Instant.now();
                        boolean refused = e.detail().equals("refused");
                        store.append(new RunRecord(
                                e.runId(),
                                "press the buttons",
                                "uid",
                                "g-crash",
                                1,
                                "a11y",
                                RunRecord.VerifierResult.NOT_RUN,
                                RunRecord.Verdict.NONE,
                                refused ? RunRecord.Outcome.REFUSED : RunRecord.Outcome.COMPLETED,
                                refused ? RefusalCode.OUT_OF_SCOPE : null,
                                now,
                                now));
                        out.println("ack " + i);
                    }
                    default -> throw new AssertionError(e);
                }
            }
        }
        out.println("finished");
    }
}
