package dev.deckhand.loop.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.ApprovalBook;
import dev.deckhand.grant.CaptureMode;
import dev.deckhand.grant.Chord;
import dev.deckhand.grant.Grant;
import dev.deckhand.grant.GrantBroker;
import dev.deckhand.grant.GrantTarget;
import dev.deckhand.grant.InputPolicy;
import dev.deckhand.grant.MintRequest;
import dev.deckhand.grant.PermissionMode;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.grant.ScopeKind;
import dev.deckhand.loop.ComputerLoop;
import dev.deckhand.loop.GrantScope;
import dev.deckhand.loop.RunRequest;
import dev.deckhand.loop.RunResult;
import dev.deckhand.loop.fakes.CountingVerifier;
import dev.deckhand.loop.fakes.MutableClock;
import dev.deckhand.loop.fakes.RecordingAudit;
import dev.deckhand.loop.fakes.ScriptedDecider;
import dev.deckhand.loop.verify.VerifierRunner;
import dev.deckhand.loop.verify.VerifierSpec;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The input boundary's seeded generator (docs/security.md#input-boundary): at least 100,000 hostile action sequences — chords (system ones among
 * them), control characters and Unicode tricks in typed text, uids of other revisions and of nothing,
 * stale (the revision moves on mid-run) and unknown capture bases, points off the capture, gated options, second runs on the same grant —
 * from an obedient model, through the real {@link ComputerLoop} and the pure {@link GrantGuard} against a
 * {@link HostileWorld} that races them (focus and password focus moving, grabs, dialogs, reused window ids,
 * deny-list apps, Stop, revoke, the mode turning to ask). Every sequence must deliver no event outside the
 * grant, and every refusal must carry a code the world or the action gave a reason for.
 *
 * <p>Each sequence has its own seed, drawn from a base seed (random per build, or
 * {@code -Dhostile.baseSeed=N}); a failure prints the sequence seed, and {@code -Dhostile.seed=N} replays it.
 */
@Tag("pure")
class HostileSequencesTest {

    static final int SEQUENCES = 100_000;
    static final PolicyConfig AUTO = PolicyConfig.defaults().withPermissionMode(PermissionMode.AUTO);
    static final PolicyConfig ASK = PolicyConfig.defaults();
    static final List<String> CHORDS = Chord.admitted(2);
    static final List<String> TEXTS = List.of(
            "hello",
            "alice\thunter2",
            "line\nbreak",
            "x\r",
            "\u001b[2J",
            "del\u007f",
            "\u2028",
            "nel\u0085",
            "csi\u009b",
            "Grüße ✓ 日本",
            "Se\u200Bnd",
            "\u202Eevil",
            "Ѕеnd",
            "  ",
            " ",
            "a".repeat(70),
            "ok");

    @Test
    void hostileSequencesDeliverNothingOutsideTheGrantAndRefuseWithJustifiedCodes() {
        Map<String, Integer> stats = new ConcurrentHashMap<>();
        String replay = System.getProperty("hostile.seed");
        if (replay != null && !replay.isBlank()) {
            runOne(Long.parseLong(replay.trim()), stats);
            return;
        }
        long base = Long.getLong("hostile.baseSeed", System.nanoTime());
        // Each sequence's seed comes from the base seed in order, as before; the sequences share nothing, so they
        // run on every CPU (the pure stage's longest test, ahead of src's compile).
        Random master = new Random(base);
        long[] seeds = new long[SEQUENCES];
        for (int i = 0; i < SEQUENCES; i++) seeds[i] = master.nextLong();
        IntStream.range(0, SEQUENCES).parallel().forEach(i -> {
            try {
                runOne(seeds[i], stats);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError(
                        "sequence " + i + " of base seed " + base + " failed: " + e.getMessage()
                                + "\nreplay with -Dhostile.seed=" + seeds[i],
                        e);
            }
        });
        System.out.println("hostile sequences: " + SEQUENCES + " (base seed " + base + "): " + new TreeMap<>(stats));
        for (String k : List.of(
                "refused:SYSTEM_CHORD",
                "refused:SECURE_INPUT",
                "refused:OUT_OF_SCOPE",
                "refused:CONSEQUENTIAL_NOT_NAMED",
                "refused:MODEL_OUTPUT_INVALID",
                "refused:BASIS_STALE",
                "refused:STOPPED",
                "refused:DENY_COMMS_VISIBLE",
                "refused:MODE_DENIED",
                "refused:BUDGET_EXHAUSTED",
                "delivered",
                "second-run:OUT_OF_SCOPE")) {
            assertTrue(stats.getOrDefault(k, 0) > 0, "the generator never reached " + k + ": " + stats);
        }
    }

    private static void runOne(long seed, Map<String, Integer> stats) {
        Random r = new Random(seed);
        MutableClock clock = new MutableClock();
        boolean pixels = r.nextInt(4) == 0;
        boolean appScope = r.nextInt(4) == 0;
        HostileWorld world = new HostileWorld(r, 1, appScope, pixels, r.nextInt(3) == 0 ? 30 : 5);
        world.gatedDialog = r.nextInt(8) == 0;
        GrantBroker.Owned owned = GrantBroker.create(clock, () -> "g-" + seed);
        GrantBroker broker = owned.broker();
        int budget = 1 + r.nextInt(5);
        broker.mint(
                owned.ownerPass(),
                MintRequest.of(
                                new GrantTarget(
                                        HostileWorld.TARGET,
                                        "testapp",
                                        "Compose",
                                        HostileWorld.PID,
                                        HostileWorld.START),
                                appScope ? ScopeKind.APP : ScopeKind.WINDOW,
                                AUTO.caps())
                        .withBudget(budget)
                        .withInputPolicy(InputPolicy.AUTONOMOUS)
                        .withCapture(pixels ? CaptureMode.PIXELS : CaptureMode.A11Y_ONLY),
                PermissionMode.AUTO);
        Grant grant = broker.acquire("s1", null);
        String runId = "run-" + seed;
        broker.hold("s1", grant.id(), runId);
        world.revision = grant.revision();
        world.onStop = () -> broker.stop("the person");
        world.onRevoke = () -> broker.revoke(grant.id());
        boolean[] bumped = {false};
        world.onBump = () -> {
            if (!world.revoked && !world.stop) broker.bump("s1", grant.id());
            bumped[0] = true;
        };
        int[] cards = {0};
        ApprovalBook approvals = new ApprovalBook(clock, ApprovalBook.DEFAULT_TTL, () -> "a-" + (++cards[0]));
        GrantGuard guard = new GrantGuard(
                () -> world.modeAsk ? ASK : AUTO,
                broker,
                approvals,
                world.desktop(),
                "s1",
                grant.id(),
                () -> world.stop || world.revoked,
                clock,
                (card, status) -> {
                    if (status == ApprovalBook.Status.PENDING) approvals.deny(card.id()); // the person is away: denied
                });
        ScriptedDecider decider = new ScriptedDecider();
        int actions = 1 + r.nextInt(5);
        for (int i = 0; i < actions; i++) {
            String out = action(r, world);
            boolean invalid = out.startsWith("!");
            String json = invalid ? out.substring(1) : out;
            decider.then(req -> {
                if (r.nextInt(100) < world.mutationChance) world.mutate();
                world.justified.clear();
                world.noteState();
                if (bumped[0]) world.justified.addAll(Set.of(RefusalCode.BASIS_STALE, RefusalCode.OUT_OF_SCOPE));
                world.justified.addAll(codesFor(json, invalid, world));
                if (world.delivered >= budget) world.justified.add(RefusalCode.BUDGET_EXHAUSTED);
                if (r.nextInt(50) == 0) {
                    RefusedException second = assertThrows(
                            RefusedException.class,
                            () -> broker.hold("s1", grant.id(), "another-run"),
                            "a second run on the same grant");
                    if (second.code() == RefusalCode.OUT_OF_SCOPE)
                        stats.merge("second-run:OUT_OF_SCOPE", 1, Integer::sum);
                }
                return json;
            });
            if (invalid) decider.then(json); // the feedback retry gets the same hostile output
        }
        GrantScope scope = new GrantScope() {
            @Override
            public long windowId() {
                return HostileWorld.TARGET;
            }

            @Override
            public long revision() {
                return broker.active().map(Grant::revision).orElse(grant.revision());
            }

            @Override
            public CaptureMode captureMode() {
                return pixels ? CaptureMode.PIXELS : CaptureMode.A11Y_ONLY;
            }
        };
        RunResult result = ComputerLoop.builder()
                .desktop(world.desktop())
                .decider(decider)
                .guard(guard)
                .audit(new RecordingAudit())
                .clock(clock)
                .stop(() -> world.stop || world.revoked)
                .scope(scope)
                .verifier(new VerifierRunner(new CountingVerifier()))
                .sleeper(d -> {})
                .build()
                .run(RunRequest.of(runId, "write to Bob", Optional.of(new VerifierSpec.Window("Compose"))));
        broker.unhold(runId);
        assertEquals(List.of(), world.violations, "events delivered outside the grant");
        if (world.delivered > 0) stats.merge("delivered", 1, Integer::sum);
        if (result.refusal().isPresent()) {
            RefusalCode code = result.refusal().get().code();
            assertTrue(!result.refusal().get().detail().isBlank(), "every refusal names what fired");
            assertTrue(
                    world.justified.contains(code),
                    "refused " + result.refusal().get() + " with nothing in the world or" + " the action to justify "
                            + code + " (justified: " + world.justified + ")");
            stats.merge("refused:" + code, 1, Integer::sum);
        }
    }

    /** One hostile output of the model; a leading "!" marks output the parser must refuse. */
    private static String action(Random r, HostileWorld w) {
        String rev = "r" + w.revision + "-";
        HostileWorld.El[] els = HostileWorld.El.values();
        String uid =
                switch (r.nextInt(6)) {
                    case 0 -> "r" + (w.revision - 1) + "-SEND"; // another revision's uid
                    case 1 -> "uForeign9"; // a uid of nothing here
                    default -> rev + els[1 + r.nextInt(els.length - 1)].name();
                };
        switch (r.nextInt(9)) {
            case 0:
            case 1: {
                String chord = r.nextInt(10) == 0
                        ? List.of("win+d", "Ctrl+s", "esc", "ctrl++", "F13").get(r.nextInt(5))
                        : CHORDS.get(r.nextInt(CHORDS.size()));
                return (Chord.PATTERN_COMPILED.matcher(chord).matches() ? "" : "!") + key(chord);
            }
            case 2: {
                String text = TEXTS.get(r.nextInt(TEXTS.size()));
                boolean printable = text.chars().noneMatch(c -> c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028);
                return (printable ? "" : "!") + "{\"action\":\"type\",\"text\":\"" + escape(text) + "\"}";
            }
            case 3:
                return "{\"action\":\"click\",\"uid\":\"" + uid + "\"}";
            case 4:
                return "{\"action\":\"set_text\",\"uid\":\"" + uid + "\",\"text\":\"x\"}";
            case 5:
                return "{\"action\":\"select\",\"uid\":\"" + rev + "FOLDER\",\"option\":\""
                        + (r.nextBoolean() ? "Delete the original" : "Keep the original") + "\"}";
            case 6: {
                String basis = r.nextInt(4) == 0 ? "c9" : "c1";
                int x = r.nextInt(450), y = r.nextInt(330);
                String json = "{\"action\":\"click_at\",\"x\":" + x + ",\"y\":" + y + ",\"basis\":\"" + basis + "\"}";
                return (w.partialTree ? "" : "!") + json; // click_at is permitted on the pixel route only
            }
            case 7:
                return "{\"action\":\"focus\",\"uid\":\"" + uid + "\"}";
            default:
                return "{\"action\":\"wait\",\"ms\":5}";
        }
    }

    /** The refusals an action can justify by itself. */
    private static Set<RefusalCode> codesFor(String json, boolean invalid, HostileWorld w) {
        EnumSet<RefusalCode> c = EnumSet.noneOf(RefusalCode.class);
        if (invalid) c.add(RefusalCode.MODEL_OUTPUT_INVALID);
        if (json.contains("\"key\"")) {
            String keys = json.substring(json.indexOf("\"keys\":\"") + 8, json.lastIndexOf('"'));
            try {
                Chord chord = Chord.parse(keys);
                if (chord.systemReason().isPresent()) c.add(RefusalCode.SYSTEM_CHORD);
                if (chord.editsText()) c.add(RefusalCode.SECURE_INPUT);
                if (chord.paste()
                        || chord.has(Chord.Modifier.ALT) && chord.letterOrDigit()
                        || chord.submits(true)
                        || chord.key().equals("space")
                        // a key that moves sets a focused value control's value or a choice's option (round 15's K1)
                        || java.util.Set.of(
                                        "Up",
                                        "Down",
                                        "Left",
                                        "Right",
                                        "Home",
                                        "End",
                                        "Page_Up",
                                        "Page_Down",
                                        "Prior",
                                        "Next")
                                .contains(chord.key())
                        // on a choice control every key but Tab and Escape moves its choice (round 19's T2e); the
                        // context menu key opens a menu whose items a letter chooses (T2g)
                        || w.focus == HostileWorld.El.FOLDER
                                && !chord.key().equals("Tab")
                                && !chord.key().equals("Escape")
                        || chord.key().equals("Menu")
                        || chord.key().equals("F10") && chord.has(Chord.Modifier.SHIFT)
                        // on an item (a button, a label: any focus but a text field) every key but Tab and Escape
                        // may reach another item of its group (round 20's A11), and a focus the tree does not hold
                        // reaches what cannot be read
                        || w.focus != HostileWorld.El.TO
                                && w.focus != HostileWorld.El.BODY
                                && !chord.key().equals("Tab")
                                && !chord.key().equals("Escape")
                        // in a text field ctrl+shift and a letter may start an input method's Unicode entry
                        || chord.has(Chord.Modifier.CTRL) && chord.has(Chord.Modifier.SHIFT)) {
                    c.add(RefusalCode.CONSEQUENTIAL_NOT_NAMED);
                }
            } catch (IllegalArgumentException bad) {
                c.add(RefusalCode.MODEL_OUTPUT_INVALID);
            }
        }
        if (json.contains("\"type\"")
                || json.contains("\"click\"")
                || json.contains("\"select\"")
                || json.contains("click_at")) {
            c.add(RefusalCode.CONSEQUENTIAL_NOT_NAMED);
        }
        if (json.contains("PASSWORD") || json.contains("\"type\"") || json.contains("click_at"))
            c.add(RefusalCode.SECURE_INPUT);
        if (json.contains("uForeign") || json.contains("\"r" + (w.revision - 1) + "-") || json.contains("click_at")) {
            c.add(RefusalCode.OUT_OF_SCOPE);
        }
        if (json.contains("\"c9\"")) c.add(RefusalCode.BASIS_STALE);
        return c;
    }

    private static String key(String chord) {
        return "{\"action\":\"key\",\"keys\":\"" + escape(chord) + "\"}";
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder();
        for (char ch : s.toCharArray()) {
            if (ch == '"' || ch == '\\') b.append('\\').append(ch);
            else if (ch < 0x20 || (ch >= 0x7f && ch <= 0x9f) || ch == 0x2028 || ch == 0x2029)
                b.append(String.format("\\u%04x", (int) ch));
            else b.append(ch);
        }
        return b.toString();
    }
}
