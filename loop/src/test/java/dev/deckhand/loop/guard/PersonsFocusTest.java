package dev.deckhand.loop.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

        /** The next snapshots fail as an app's do while its modal dialog runs (abiword's Open). */
        boolean hangsAfterClick;

        private boolean clicked;
        /** The keyboard's change count as the platform reports it. */
        long keyboardChanges;
        /** Another window of the app's client (a popup a page opens) is on the client list. */
        boolean popup;
        /** A window of some other client on the client list, or null. */
        dev.deckhand.loop.desktop.WindowInfo extra;
        /** OK opens a menu that takes the keyboard, held by this client (the app's: 0x2a00000), as measured. */
        long menuGrabBy;
        /** Whether the measure says the grab came after Deckhand's action began (no press of the person's between). */
        boolean afterOwnAction = true;

        World(boolean privateDesktop) {
            super(new java.util.Random(1), 1, false, false, 0);
            this.privateDesktop = privateDesktop;
        }

        @Override
        public void click(String uid) {
            super.click(uid);
            clicked = true;
            if (!uid.endsWith("-OK")) return;
            if (menuGrabBy != 0) {
                grabbed = true;
                return;
            }
            if (lateBy < 0) focusedWindow = TARGET;
            else activateIn = lateBy;
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

        @Override
        public dev.deckhand.loop.desktop.ScopedTree snapshot(long windowId, long grantRevision) {
            if (hangsAfterClick && clicked) {
                throw new dev.deckhand.grant.RefusedException(dev.deckhand.grant.Refusal.a11yUnavailable(
                        "app pid " + PID + " is not responding to accessibility calls (hung or stopped)"));
            }
            return super.snapshot(windowId, grantRevision);
        }

        @Override
        public dev.deckhand.loop.desktop.DesktopFacts fresh() {
            dev.deckhand.loop.desktop.DesktopFacts f = super.fresh();
            if (!grabbed || menuGrabBy == 0) return f;
            return new dev.deckhand.loop.desktop.DesktopFacts(
                    f.passwordFocused(),
                    true,
                    f.runningApps(),
                    f.windows(),
                    f.browserHost(),
                    f.focusedWindow(),
                    f.focusedElement(),
                    f.popups(),
                    f.screenLock(),
                    new dev.deckhand.loop.desktop.GrabHolder.Client(menuGrabBy, TARGET, afterOwnAction));
        }

        @Override
        public java.util.List<dev.deckhand.loop.desktop.WindowInfo> windows() {
            java.util.List<dev.deckhand.loop.desktop.WindowInfo> out = new java.util.ArrayList<>(super.windows());
            if (popup) {
                // a new top-level of the app's client (same client bits), no dialog of anything
                out.add(new dev.deckhand.loop.desktop.WindowInfo(
                        POPUP, "details", "testapp", -1, GEOMETRY, 5, true, false, false, 0x2a00000L, 0, false, -1));
            }
            if (extra != null) out.add(extra);
            return out;
        }

        @Override
        public dev.deckhand.loop.desktop.KeyboardChanges keyboardChanges() {
            return new dev.deckhand.loop.desktop.KeyboardChanges(
                    keyboardChanges, keyboardChanges == 0 ? "" : "the keysyms of 2 keys and the modifier map");
        }
    }

    static final long POPUP = 0x2a00123L;

    private static RunResult run(World world, String stepsJson) {
        return run(world, stepsJson, d -> {});
    }

    /** The run's explicit steps on {@code world}; {@code onSleep} is the wait's sleeper (the clock moves by it too). */
    private static RunResult run(
            World world, String stepsJson, java.util.function.Consumer<java.time.Duration> onSleep) {
        MutableClock clock = new MutableClock();
        GrantBroker.Owned owned = GrantBroker.create(clock, () -> "g1");
        GrantBroker broker = owned.broker();
        broker.mint(
                owned.ownerPass(),
                MintRequest.of(
                                new GrantTarget(
                                        HostileWorld.TARGET,
                                        "testapp",
                                        "Compose",
                                        HostileWorld.PID,
                                        HostileWorld.START),
                                ScopeKind.WINDOW,
                                PolicyConfig.Caps.defaults())
                        .withBudget(10)
                        .withInputPolicy(InputPolicy.AUTONOMOUS),
                PermissionMode.AUTO);
        Grant g = broker.acquire("s1", null);
        world.revision = g.revision();
        GrantGuard guard = new GrantGuard(
                () -> PolicyConfig.defaults().withPermissionMode(PermissionMode.AUTO),
                broker,
                new ApprovalBook(clock),
                world.desktop(),
                "s1",
                "g1",
                new StopLatch(),
                clock,
                (c, s) -> {});
        GrantScope scope = new GrantScope() {
            @Override
            public long windowId() {
                return HostileWorld.TARGET;
            }

            @Override
            public long revision() {
                return broker.active().map(Grant::revision).orElse(g.revision());
            }

            @Override
            public CaptureMode captureMode() {
                return CaptureMode.A11Y_ONLY;
            }
        };
        RunRequest request = RunRequest.of("run", "act", Optional.of(new VerifierSpec.Window("Compose")))
                .withSteps(StepParser.fromJson(dev.deckhand.loop.json.Json.parse(stepsJson)));
        return ComputerLoop.builder()
                .desktop(world.desktop())
                .decider(ScriptedDecider.of())
                .guard(guard)
                .audit(new RecordingAudit())
                .clock(clock)
                .stop(new StopLatch())
                .scope(scope)
                .verifier(new VerifierRunner(new CountingVerifier()))
                .sleeper(d -> {
                    clock.advance(d);
                    onSleep.accept(d);
                })
                .build()
                .run(request);
    }

    private static final String FOCUS_TO = "[{\"action\":\"focus\",\"target\":{\"role\":\"text\",\"name\":\"To\"}}]";

    @Test
    void aFocusWhileAnotherWindowIsActiveIsRefusedAndTheActiveWindowStays() {
        World world = new World(false);
        world.focusedWindow = HostileWorld.OTHER; // the person works in another window
        RunResult r = run(world, FOCUS_TO);
        assertEquals(RefusalCode.OUT_OF_SCOPE, r.refusal().orElseThrow().code(), r.toString());
        assertTrue(
                r.refusal().get().detail().startsWith("focus would activate the window while another window is active"),
                r.refusal().get().detail());
        assertEquals(0, world.delivered, "no focus call reached the app");
        assertEquals(HostileWorld.OTHER, world.focusedWindow, "the person's window is still the active one");
        assertEquals(List.of(), world.violations);
    }

    /**
     * Round 13's F1: a click on a text field gives it the focus (Chromium activated its window for its address bar), so
     * it is refused while the person is elsewhere, like {@code focus}; a button's click, and set_text, are not.
     */
    @Test
    void aClickOnATextFieldIsAFocus() {
        dev.deckhand.loop.desktop.Geometry g = new dev.deckhand.loop.desktop.Geometry(0, 0, 10, 10);
        List<dev.deckhand.loop.desktop.Node> n = List.of(
                dev.deckhand.loop.fakes.Trees.node("f", 0, "frame", "f"),
                new dev.deckhand.loop.desktop.Node(
                        "bar", 1, "entry", "Address and search bar", true, "", true, false, true, true, g),
                new dev.deckhand.loop.desktop.Node("label", 1, "text", "Shown", true, "x", true, false, false, true, g),
                dev.deckhand.loop.fakes.Trees.node("b", 1, "push button", "b"));
        dev.deckhand.loop.desktop.ScopedTree tree = new dev.deckhand.loop.desktop.ScopedTree(1, 1, n, false);
        assertTrue(GrantGuard.clicksTextField(new dev.deckhand.loop.action.Action.Click("bar"), tree));
        assertFalse(GrantGuard.clicksTextField(new dev.deckhand.loop.action.Action.Click("label"), tree), "read-only");
        assertFalse(GrantGuard.clicksTextField(new dev.deckhand.loop.action.Action.Click("b"), tree));
        assertFalse(GrantGuard.clicksTextField(new dev.deckhand.loop.action.Action.SetText("bar", "x"), tree));
    }

    /**
     * What opens a menu (which grabs the keyboard, so it is refused before delivery while the person is elsewhere,
     * like {@code focus}): a GTK or LibreOffice {@code menu}, a Qt {@code menu item} right under the menu bar; not an
     * item inside an open menu, not a button.
     */
    @Test
    void whatOpensAMenuIsAMenuOrAMenuBarsItem() {
        List<dev.deckhand.loop.desktop.Node> n = new java.util.ArrayList<>();
        n.add(dev.deckhand.loop.fakes.Trees.node("f", 0, "frame", "f"));
        n.add(dev.deckhand.loop.fakes.Trees.node("mb", 1, "menu bar", "mb"));
        n.add(dev.deckhand.loop.fakes.Trees.node("gtk", 2, "menu", "gtk"));
        n.add(dev.deckhand.loop.fakes.Trees.node("inner", 3, "menu item", "inner"));
        n.add(dev.deckhand.loop.fakes.Trees.node("qt", 2, "menu item", "qt"));
        n.add(dev.deckhand.loop.fakes.Trees.node("b", 1, "push button", "b"));
        dev.deckhand.loop.desktop.ScopedTree tree = new dev.deckhand.loop.desktop.ScopedTree(1, 1, n, false);
        dev.deckhand.grant.ProposedAction none =
                dev.deckhand.grant.ProposedAction.bare(dev.deckhand.grant.ActionKind.CLICK, 1, 1);
        assertTrue(GrantGuard.opensMenu(new dev.deckhand.loop.action.Action.Click("gtk"), tree, none));
        assertTrue(GrantGuard.opensMenu(new dev.deckhand.loop.action.Action.Click("qt"), tree, none));
        assertFalse(GrantGuard.opensMenu(new dev.deckhand.loop.action.Action.Click("inner"), tree, none));
        assertFalse(GrantGuard.opensMenu(new dev.deckhand.loop.action.Action.Click("b"), tree, none));
        assertFalse(GrantGuard.opensMenu(new dev.deckhand.loop.action.Action.Focus("gtk"), tree, none));
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
        RunResult r = run(
                world,
                "[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"OK\"}},"
                        + "{\"action\":\"set_text\",\"target\":{\"role\":\"text\",\"name\":\"To\"},\"text\":\"x\"}]");
        assertEquals(RefusalCode.OUT_OF_SCOPE, r.refusal().orElseThrow().code(), r.toString());
        assertTrue(
                r.refusal()
                        .get()
                        .detail()
                        .contains("the active window 0.0 s after the click while the person was in another window"),
                r.refusal().get().detail());
        assertEquals(1, r.stepsRun(), "the click was delivered and counted; the run ended before the next step");
        assertEquals(1, world.delivered);
    }

    @Test
    void anActivationThatArrivesAfterTheSettleEndsTheRunAtTheNextCheck() {
        World world = new World(false);
        world.focusedWindow = HostileWorld.OTHER;
        world.lateBy = 1; // not yet when the click has settled; by the next step's check
        RunResult r = run(
                world,
                "[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"OK\"}},"
                        + "{\"action\":\"set_text\",\"target\":{\"role\":\"text\",\"name\":\"To\"},\"text\":\"x\"}]");
        assertEquals(RefusalCode.OUT_OF_SCOPE, r.refusal().orElseThrow().code(), r.toString());
        assertTrue(
                r.refusal()
                        .get()
                        .detail()
                        .startsWith("the granted app's window 0x2a00007 became the active window"
                                + " 0.0 s after the click while the person was in another window"),
                r.refusal().get().detail());
        assertEquals(1, r.stepsRun(), "the set_text never ran");
    }

    /**
     * B17: a page opens a popup window seconds after the click asked for it, long after the action settled; the run
     * waits meanwhile. The wait looks at the active window between its slices: the run ends there, saying how long
     * after the click, and the rest of the wait is not slept.
     */
    @Test
    void aWindowTheAppActivatesSecondsAfterTheClickEndsTheRunDuringTheWait() {
        World world = new World(false);
        world.focusedWindow = HostileWorld.OTHER;
        java.util.List<java.time.Duration> slept = new java.util.ArrayList<>();
        RunResult r = run(
                world,
                "[{\"action\":\"click\",\"target\":{\"role\":\"label\",\"name\":\"Message to Bob\"}},"
                        + "{\"action\":\"wait\",\"ms\":4500}]",
                d -> {
                    slept.add(d);
                    // three seconds into the wait the page's timer opens its popup, which the window manager activates
                    if (slept.size() == 30) {
                        world.popup = true;
                        world.focusedWindow = POPUP;
                    }
                });
        assertEquals(RefusalCode.OUT_OF_SCOPE, r.refusal().orElseThrow().code(), r.toString());
        assertTrue(
                r.refusal()
                        .get()
                        .detail()
                        .startsWith("the granted app's window 0x2a00123 became the active window"
                                + " 3.0 s after the click while the person was in another window"),
                r.refusal().get().detail());
        assertEquals(
                3000,
                slept.stream().mapToLong(java.time.Duration::toMillis).sum(),
                "the wait ended at the first slice after");
        assertTrue(slept.stream().allMatch(d -> d.toMillis() <= 100), "slices of at most 100 ms: " + slept);
    }

    /** A window of another client: {@code pid}, its process started at {@code start} (clock ticks), 0x4400001. */
    private static dev.deckhand.loop.desktop.WindowInfo otherClientsWindow(int pid, long start) {
        return new dev.deckhand.loop.desktop.WindowInfo(
                0x4400001L,
                "Session expired",
                "xmessage",
                pid,
                new dev.deckhand.loop.desktop.Geometry(10, 10, 200, 80),
                6,
                true,
                false,
                false,
                0x4400000L,
                0,
                false,
                start);
    }

    /** A wait of 4.5 s during which, 3 s in, {@code appears} is mapped and activated by the window manager. */
    private static RunResult clickThenWindowAppears(World world, dev.deckhand.loop.desktop.WindowInfo appears) {
        java.util.List<java.time.Duration> slept = new java.util.ArrayList<>();
        return run(
                world,
                "[{\"action\":\"click\",\"target\":{\"role\":\"label\",\"name\":\"Message to Bob\"}},"
                        + "{\"action\":\"wait\",\"ms\":4500}]",
                d -> {
                    slept.add(d);
                    if (slept.size() == 30) {
                        world.extra = appears;
                        world.focusedWindow = appears.id();
                    }
                });
    }

    /**
     * Round 2 of the review: a granted terminal ran {@code (sleep 1; xmessage …) &}; the xmessage — another process,
     * a window new since the run began — took the person's focus and the run went on. A window that is new and whose
     * process is newer than every process that had a window at the start (or unknown) ends the run like the granted
     * app's own; the detail names no window of the person's.
     */
    @Test
    void aNewProgramsWindowThatTakesTheFocusDuringTheRunEndsIt() {
        for (long start : new long[] {HostileWorld.START + 100, -1}) {
            World world = new World(false);
            world.focusedWindow = HostileWorld.OTHER;
            RunResult r = clickThenWindowAppears(world, otherClientsWindow(5151, start));
            assertEquals(RefusalCode.OUT_OF_SCOPE, r.refusal().orElseThrow().code(), "start " + start + ": " + r);
            assertTrue(
                    r.refusal()
                            .get()
                            .detail()
                            .startsWith("a window of a program started during the run (the granted"
                                    + " app may have started it) became the active window 3.0 s after the click while the person was in"
                                    + " another window"),
                    r.refusal().get().detail());
            assertFalse(
                    r.refusal().get().detail().contains(Long.toHexString(HostileWorld.OTHER)),
                    "the person's window unnamed");
        }
    }

    /** The control: a new window of a process that already had one (the person's terminal opening another) is theirs. */
    @Test
    void aNewWindowOfAProgramAlreadyRunningIsThePersons() {
        World world = new World(false);
        world.focusedWindow = HostileWorld.OTHER;
        RunResult r = clickThenWindowAppears(world, otherClientsWindow(99, 5));
        assertTrue(r.refusal().isEmpty(), r.toString());
        assertEquals(2, r.stepsRun());
    }

    /** The same popup after the last step: the run's end reads the active window once more; no completed run. */
    @Test
    void anActivationAfterTheLastStepIsTheRunsEnding() {
        World world = new World(false);
        world.focusedWindow = HostileWorld.OTHER;
        world.lateBy = 1; // not at the click's settle; by the run's last look
        RunResult r = run(world, "[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"OK\"}}]");
        assertEquals(RefusalCode.OUT_OF_SCOPE, r.refusal().orElseThrow().code(), r.toString());
        assertEquals(1, r.stepsRun());
    }

    /**
     * B23: the click opens the app's modal dialog, which takes the focus, and the app stops answering accessibility
     * calls while it runs. The run ends saying the focus moved, not that the app stopped answering.
     */
    @Test
    void aDialogThatTookTheFocusAndStoppedTheAppAnsweringIsReportedAsTheFocusMove() {
        World world = new World(false);
        world.focusedWindow = HostileWorld.OTHER;
        world.hangsAfterClick = true;
        // not at the settle, the effect's look, the next step's check or the run's first look at its end: the
        // dialog takes the focus a moment after the app stopped answering, within the grace the end looks for it
        world.lateBy = 6;
        RunResult r = run(
                world,
                "[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"OK\"}},"
                        + "{\"action\":\"set_text\",\"target\":{\"role\":\"text\",\"name\":\"To\"},\"text\":\"x\"}]");
        assertEquals(RefusalCode.OUT_OF_SCOPE, r.refusal().orElseThrow().code(), r.toString());
        assertTrue(
                r.refusal().get().detail().contains("became the active window"),
                r.refusal().get().detail());
        assertEquals(1, r.stepsRun());
    }

    /** The control: the same hang with the person's window still active ends A11Y_UNAVAILABLE, as before. */
    @Test
    void theSameHangWithoutAFocusMoveStaysA11yUnavailable() {
        World world = new World(false);
        world.focusedWindow = HostileWorld.OTHER;
        world.hangsAfterClick = true;
        world.lateBy = 1_000_000; // never
        RunResult r = run(
                world,
                "[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"OK\"}},"
                        + "{\"action\":\"set_text\",\"target\":{\"role\":\"text\",\"name\":\"To\"},\"text\":\"x\"}]");
        assertEquals(RefusalCode.A11Y_UNAVAILABLE, r.refusal().orElseThrow().code(), r.toString());
    }

    /** Watched from the run's start: no action of Deckhand's, and an app that activates itself while the run waits. */
    @Test
    void anAppThatActivatesItselfWhileTheRunOnlyWaitsEndsTheRun() {
        World world = new World(false);
        world.focusedWindow = HostileWorld.OTHER;
        RunResult r = run(world, "[{\"action\":\"wait\",\"ms\":1000}]", d -> world.focusedWindow = HostileWorld.TARGET);
        assertEquals(RefusalCode.OUT_OF_SCOPE, r.refusal().orElseThrow().code(), r.toString());
        assertTrue(
                r.refusal()
                        .get()
                        .detail()
                        .contains(
                                "became the active window during the run while the person was in" + " another window"),
                r.refusal().get().detail());
        assertEquals(0, world.delivered);
    }

    /** The keyboard changed while the run went on (a granted terminal ran setxkbmap): the run ends, saying so. */
    @Test
    void aKeyboardChangeDuringTheRunEndsIt() {
        World world = new World(false);
        world.keyboardChanges = 4; // changes before the run began do not count
        RunResult r = run(
                world,
                "[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"OK\"}},"
                        + "{\"action\":\"wait\",\"ms\":1000}]",
                d -> world.keyboardChanges = 5);
        assertEquals(RefusalCode.OUT_OF_SCOPE, r.refusal().orElseThrow().code(), r.toString());
        assertEquals(
                "the keyboard was changed during the run (the keysyms of 2 keys and the modifier map; 1 change): a task"
                        + " never needs to remap the person's keyboard, so the run ends here",
                r.refusal().get().detail());
        assertEquals(1, r.stepsRun(), "the click ran; the wait ended at its first look after the change");
    }

    @Test
    void onAPrivateDesktopNeitherTheFocusNorTheKeyboardIsWatched() {
        World world = new World(true);
        world.focusedWindow = HostileWorld.OTHER;
        RunResult r = run(world, "[{\"action\":\"wait\",\"ms\":500}]", d -> {
            world.focusedWindow = HostileWorld.TARGET;
            world.keyboardChanges++;
        });
        assertTrue(r.refusal().isEmpty(), r.toString());
    }

    @Test
    void theSameClickWhileThePersonIsInTheGrantedWindowGoesOn() {
        World world = new World(false);
        RunResult r = run(
                world,
                "[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"OK\"}},"
                        + "{\"action\":\"set_text\",\"target\":{\"role\":\"text\",\"name\":\"To\"},\"text\":\"x\"}]");
        assertTrue(r.refusal().isEmpty(), r.toString());
        assertEquals(2, r.stepsRun());
    }

    private static final String OPEN_MENU =
            "[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"OK\"}}]";

    @Test
    void aMenuTheActionOpenedThatHoldsThePersonsKeyboardEndsTheRun() {
        World world = new World(false);
        world.focusedWindow = HostileWorld.OTHER;
        world.menuGrabBy = 0x2a00000L;
        RunResult r = run(world, OPEN_MENU);
        assertEquals(RefusalCode.OUT_OF_SCOPE, r.refusal().orElseThrow().code(), r.toString());
        assertTrue(
                r.refusal()
                        .get()
                        .detail()
                        .contains("holds the keyboard after the click while the person is in another window"),
                r.refusal().get().detail());
        assertEquals(1, world.delivered, "the click was delivered: the grab is found after it");
        assertEquals(HostileWorld.OTHER, world.activeWindow(), "the person's window stays the active one");
    }

    @Test
    void anotherClientsGrabOrOneThePersonOpenedIsNotTheActionsMenu() {
        for (boolean other : new boolean[] {true, false}) {
            World world = new World(false);
            world.focusedWindow = HostileWorld.OTHER;
            world.menuGrabBy = other ? 0x3c00000L : 0x2a00000L;
            world.afterOwnAction = other;
            RunResult r = run(world, OPEN_MENU);
            assertTrue(
                    r.refusal().isEmpty() || !r.refusal().get().detail().contains("holds the keyboard"), r.toString());
        }
    }

    @Test
    void theAppsMenuIsNoOnesKeyboardOnAPrivateDesktopOrWhileThePersonIsInTheApp() {
        World priv = new World(true);
        priv.focusedWindow = HostileWorld.OTHER;
        priv.menuGrabBy = 0x2a00000L;
        assertTrue(run(priv, OPEN_MENU).refusal().isEmpty());
        World inApp = new World(false);
        inApp.menuGrabBy = 0x2a00000L;
        assertTrue(run(inApp, OPEN_MENU).refusal().isEmpty());
    }
}
