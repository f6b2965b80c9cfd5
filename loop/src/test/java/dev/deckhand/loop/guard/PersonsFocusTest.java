package dev.deckhand.loop.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.ApprovalBook;
import dev.deckhand.grant.CaptureMode;
import dev.deckhand.grant.Grant;
import dev.deckhand.grant.GrantBroker;
import dev.deckhand.grant.GrantTarget;
import dev.deckhand.grant.InputPolicy;
import dev.deckhand.grant.MintRequest;
import dev.deckhand.grant.PermissionMode;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.ScopeKind;
import dev.deckhand.loop.ComputerLoop;
import dev.deckhand.loop.GrantScope;
import dev.deckhand.loop.RunRequest;
import dev.deckhand.loop.RunResult;
import dev.deckhand.loop.StopLatch;
import dev.deckhand.loop.fakes.CountingVerifier;
import dev.deckhand.loop.fakes.MutableClock;
import dev.deckhand.loop.fakes.RecordingAudit;
import dev.deckhand.loop.fakes.ScriptedDecider;
import dev.deckhand.loop.steps.StepParser;
import dev.deckhand.loop.verify.VerifierRunner;
import dev.deckhand.loop.verify.VerifierSpec;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Deckhand never moves the person's focus: a {@code focus} is refused while another window is active (a
 * toolkit's focus call may activate the element's window, as GTK 3's does), and a delivered action after which
 * the granted window became the active one while the person was in another window ends the run. A private
 * virtual desktop Deckhand started is exempt.
 */
@Tag("pure")
class PersonsFocusTest {

    /** {@link HostileWorld} whose OK button, like a dialog an app presents, activates the granted window. */
    static final class World extends HostileWorld {
        final boolean privateDesktop;
        /** The window manager activates the window this many reads of the active window after the click; -1: at once. */
        int lateBy = -1;
        private int activateIn = -1;

        World(boolean privateDesktop) {
            super(new java.util.Random(1), 1, false, false, 0);
            this.privateDesktop = privateDesktop;
        }

        @Override
        public void click(String uid) {
            super.click(uid);
            if (!uid.endsWith("-OK")) return;
            if (lateBy < 0) focusedWindow = TARGET; else activateIn = lateBy;
        }

        @Override
        public long activeWindow() {
            if (activateIn == 0) focusedWindow = TARGET;
            if (activateIn >= 0) activateIn--;
            return super.activeWindow();
        }

        @Override
        public boolean privateDesktop() {
            return privateDesktop;
        }
    }

    private static RunResult run(World world, String stepsJson) {
        MutableClock clock = new MutableClock();
        GrantBroker.Owned owned = GrantBroker.create(clock, () -> "g1");
        GrantBroker broker = owned.broker();
        broker.mint(owned.ownerPass(), MintRequest.of(new GrantTarget(HostileWorld.TARGET, "testapp", "Compose",
                HostileWorld.PID, HostileWorld.START), ScopeKind.WINDOW, PolicyConfig.Caps.defaults()).withBudget(10)
                .withInputPolicy(InputPolicy.AUTONOMOUS), PermissionMode.AUTO);
        Grant g = broker.acquire("s1", null);
        world.revision = g.revision();
        GrantGuard guard = new GrantGuard(() -> PolicyConfig.defaults().withPermissionMode(PermissionMode.AUTO), broker,
                new ApprovalBook(clock), world.desktop(), "s1", "g1", new StopLatch(), clock, (c, s) -> { });
        GrantScope scope = new GrantScope() {
            @Override public long windowId() { return HostileWorld.TARGET; }
            @Override public long revision() { return broker.active().map(Grant::revision).orElse(g.revision()); }
            @Override public CaptureMode captureMode() { return CaptureMode.A11Y_ONLY; }
        };
        RunRequest request = RunRequest.of("run", "act", Optional.of(new VerifierSpec.Window("Compose")))
                .withSteps(StepParser.fromJson(dev.deckhand.loop.json.Json.parse(stepsJson)));
        return ComputerLoop.builder().desktop(world.desktop()).decider(ScriptedDecider.of()).guard(guard)
                .audit(new RecordingAudit()).clock(clock).stop(new StopLatch()).scope(scope)
                .verifier(new VerifierRunner(new CountingVerifier())).sleeper(d -> { }).build().run(request);
    }

    private static final String FOCUS_TO = "[{\"action\":\"focus\",\"target\":{\"role\":\"text\",\"name\":\"To\"}}]";

    @Test
    void aFocusWhileAnotherWindowIsActiveIsRefusedAndTheActiveWindowStays() {
        World world = new World(false);
        world.focusedWindow = HostileWorld.OTHER; // the person works in another window
        RunResult r = run(world, FOCUS_TO);
        assertEquals(RefusalCode.OUT_OF_SCOPE, r.refusal().orElseThrow().code(), r.toString());
        assertTrue(r.refusal().get().detail().startsWith("focus would activate the window while another window is active"),
                r.refusal().get().detail());
        assertEquals(0, world.delivered, "no focus call reached the app");
        assertEquals(HostileWorld.OTHER, world.focusedWindow, "the person's window is still the active one");
        assertEquals(List.of(), world.violations);
    }

    @Test
    void aFocusWhileTheGrantedWindowIsActiveGoes() {
        World world = new World(false);
        RunResult r = run(world, FOCUS_TO);
        assertTrue(r.refusal().isEmpty(), r.toString());
        assertEquals(1, world.delivered);
    }

    @Test
    void onAPrivateDesktopDeckhandStartedAFocusMayActivateTheWindow() {
        World world = new World(true);
        world.focusedWindow = HostileWorld.OTHER;
        RunResult r = run(world, FOCUS_TO);
        assertTrue(r.refusal().isEmpty(), r.toString());
        assertEquals(1, world.delivered);
        assertEquals(HostileWorld.TARGET, world.focusedWindow, "nobody's focus to keep there");
    }

    @Test
    void anActionThatActivatesTheGrantedWindowWhileThePersonIsElsewhereEndsTheRun() {
        World world = new World(false);
        world.focusedWindow = HostileWorld.OTHER;
        RunResult r = run(world, "[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"OK\"}},"
                + "{\"action\":\"set_text\",\"target\":{\"role\":\"text\",\"name\":\"To\"},\"text\":\"x\"}]");
        assertEquals(RefusalCode.OUT_OF_SCOPE, r.refusal().orElseThrow().code(), r.toString());
        assertTrue(r.refusal().get().detail().contains("the active window while the person was in window 0x3c00001"),
                r.refusal().get().detail());
        assertEquals(1, r.stepsRun(), "the click was delivered and counted; the run ended before the next step");
        assertEquals(1, world.delivered);
    }

    @Test
    void anActivationThatArrivesAfterTheSettleEndsTheRunAtTheNextCheck() {
        World world = new World(false);
        world.focusedWindow = HostileWorld.OTHER;
        world.lateBy = 1; // not yet when the click has settled; by the next step's check
        RunResult r = run(world, "[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"OK\"}},"
                + "{\"action\":\"set_text\",\"target\":{\"role\":\"text\",\"name\":\"To\"},\"text\":\"x\"}]");
        assertEquals(RefusalCode.OUT_OF_SCOPE, r.refusal().orElseThrow().code(), r.toString());
        assertTrue(r.refusal().get().detail().startsWith("the click made the granted app's window"), r.refusal().get().detail());
        assertEquals(1, r.stepsRun(), "the set_text never ran");
    }

    @Test
    void theSameClickWhileThePersonIsInTheGrantedWindowGoesOn() {
        World world = new World(false);
        RunResult r = run(world, "[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"OK\"}},"
                + "{\"action\":\"set_text\",\"target\":{\"role\":\"text\",\"name\":\"To\"},\"text\":\"x\"}]");
        assertTrue(r.refusal().isEmpty(), r.toString());
        assertEquals(2, r.stepsRun());
    }
}
