package dev.deckhand.run;

import dev.deckhand.audit.AuditLog;
import dev.deckhand.grant.CaptureMode;
import dev.deckhand.grant.Grant;
import dev.deckhand.grant.GrantBroker;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.home.KnownSecrets;
import dev.deckhand.loop.ActionIntent;
import dev.deckhand.loop.ActionResult;
import dev.deckhand.loop.AuditSink;
import dev.deckhand.loop.ComputerLoop;
import dev.deckhand.loop.GrantScope;
import dev.deckhand.loop.LoopLimits;
import dev.deckhand.loop.RunRequest;
import dev.deckhand.loop.RunResult;
import dev.deckhand.loop.StopLatch;
import dev.deckhand.loop.StopSignal;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.desktop.MenuClosing;
import dev.deckhand.loop.desktop.ScreenedDesktop;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.loop.guard.DesktopPreflight;
import dev.deckhand.loop.guard.GrantGuard;
import dev.deckhand.loop.verify.DesktopVerifier;
import dev.deckhand.loop.verify.VerifierRunner;
import dev.deckhand.model.ModelBindingStore;
import dev.deckhand.model.ModelClient;
import dev.deckhand.model.PriceTable;
import dev.deckhand.model.ProviderRetry;
import dev.deckhand.owner.GrantService;
import dev.deckhand.platform.Processes;
import dev.deckhand.platform.linux.Undumpable;
import dev.deckhand.policy.FileVerifierScope;
import dev.deckhand.policy.PolicyStore;
import dev.deckhand.presence.Presence;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.jboss.logging.Logger;

/**
 * The per-run assembly: wires one run's ports — Stop (the latch, MCP cancellation, the grant's end), the
 * pure {@link GrantGuard} over the broker, the policy and the approval book, the grant's scope, the
 * declared verifier on the desktop and the host, the bound model, the loop's limits from the policy's
 * caps, the audit trail, the preflight, presence and the watcher — and runs the bounded loop once.
 */
@ApplicationScoped
public class RunAssembly {

    private static final Logger LOG = Logger.getLogger(RunAssembly.class);

    private final GrantService grants;
    private final PolicyStore policy;
    private final AuditLog audit;
    private final ModelClient model;
    private final ModelBindingStore modelStore;
    private final Presence presence;
    private final FileVerifierScope files;
    private final Watcher watcher;
    private final RunRecorder recorder;
    private final Clock clock;
    private final KnownSecrets secrets;
    private final CommandGrants commandGrants;

    @Inject
    public RunAssembly(
            GrantService grants,
            PolicyStore policy,
            AuditLog audit,
            ModelClient model,
            ModelBindingStore modelStore,
            Presence presence,
            FileVerifierScope files,
            Watcher watcher,
            RunRecorder recorder,
            Clock clock,
            KnownSecrets secrets,
            CommandGrants commandGrants) {
        this.grants = grants;
        this.policy = policy;
        this.audit = audit;
        this.model = model;
        this.modelStore = modelStore;
        this.presence = presence;
        this.files = files;
        this.watcher = watcher;
        this.recorder = recorder;
        this.clock = clock;
        this.secrets = secrets;
        this.commandGrants = commandGrants;
    }

    private final ExecutorService modelCalls = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "deckhand-model");
        t.setDaemon(true);
        return t;
    });

    /** Runs an admitted request on its grant, which the caller has bound to the run's session and holds for it. */
    RunResult run(RunContext run) {
        RunRequest request = run.request();
        PolicyConfig config = run.config();
        Grant grant = run.grant();
        Desktop desktop = run.desktop();
        String sessionId = run.sessionId();
        RunNotes notes = run.notes();
        GrantBroker broker = grants.broker();
        long windowId = grant.target().windowId();
        StopSignal stop = stop(request, grant, sessionId, run.cancelled());
        StepPhases phases = new StepPhases();
        Desktop timed = TimedDesktop.over(desktop, phases);
        GrantGuard guard = new GrantGuard(
                policy::current,
                broker,
                grants.approvals(),
                timed,
                sessionId,
                grant.id(),
                stop,
                clock,
                recorder.cards(request.runId()),
                files.deniedPlaces());
        GrantScope scope = new GrantScope() {
            @Override
            public long windowId() {
                return windowId;
            }

            @Override
            public long revision() {
                return broker.active().map(Grant::revision).orElse(grant.revision());
            }

            @Override
            public CaptureMode captureMode() {
                return broker.active().map(Grant::capture).orElse(grant.capture());
            }
        };
        AtomicLong verifierNanos = new AtomicLong();
        // A failing check is read again while the app may still be catching up, but not after Stop or
        // an abort: the person asked for the run to end now.
        // Every read of the run is screened for Deckhand's own secrets: the loop's (what the model sees) and
        // the verifier's (what its report may describe). Either finding one ends the run SECRET_ON_SCREEN.
        String app = grant.target().app();
        java.util.function.Predicate<WindowInfo> inScope = w ->
                w.id() == windowId || w.transientFor() == windowId || w.app().equalsIgnoreCase(app);
        // What a granted app that runs commands can show of a secret it read (reversed, cut up) no matcher finds:
        // the opening of the secret files from its first input on, for the rest of the grant's life.
        // What no watch sees: a process of it reading the server's memory. Not asked on a private desktop Deckhand
        // started, where its tests and the task suite run as root (docs/security.md#who-opens-the-secret-files).
        boolean privateDesktop = desktop.display().privateDesktop();
        SecretFileRunWindow secretFiles = new SecretFileRunWindow(
                () -> Processes.runsCommands(grant.target().pid()),
                () -> commandGrants.hold(grant.id(), grant.target().pid()),
                () -> privateDesktop
                        ? Optional.empty()
                        : Processes.memoryReader(grant.target().pid(), Undumpable.readableByItsUser()));
        ScreenedDesktop verifierReads = new ScreenedDesktop(desktop, secrets::current, inScope, secretFiles);
        DesktopVerifier desktopVerifier = new DesktopVerifier(
                verifierReads.desktop(),
                windowId,
                scope::revision,
                new HostVerifier(config, files, secrets::current),
                () -> !stop.stopRequested() && guard.aborted().isEmpty());
        VerifierRunner verifier = new VerifierRunner(spec -> {
            long t0 = System.nanoTime();
            try {
                return desktopVerifier.verify(spec);
            } finally {
                verifierNanos.addAndGet(System.nanoTime() - t0);
            }
        });
        LoopLimits limits = new LoopLimits(
                config.caps().maxSteps(),
                config.caps().wallClock(),
                LoopLimits.DEFAULTS.observationTokens(),
                LoopLimits.DEFAULTS.captureLongEdge(),
                LoopLimits.DEFAULTS.settle(),
                LoopLimits.DEFAULTS.lastSteps());
        // computed once: the cards, the model calls and the loop all end at it
        Instant deadline = limits.deadline(clock, request);
        guard.cardsUntil(deadline);
        // a full-screen program or a job in the granted terminal's foreground makes any letter a command (send)
        guard.programReadsKeys(() -> Processes.programReadsKeys(grant.target().pid()));
        UsageTally usage = new UsageTally(this::prices);
        ModelDecider decider = new ModelDecider(
                model.forApp(grant.target().app()),
                modelCalls,
                () -> stop.stopRequested()
                        ? Optional.of(Refusal.stopped("Stop while the model was answering"))
                        : guard.aborted(),
                usage,
                ProviderRetry.system(),
                deadline,
                secrets::current);
        // Presence (docs/presence.md): Focus on, the drawn cursor on the acting desktop, the voice line; closed on
        // every exit path, a crashed loop included, as is the watcher.
        long beforeRun = System.nanoTime();
        try (Presence.Run shown = presence.begin(desktop);
                Watcher.Watch watch = watcher.watch(desktop, broker, guard, config.pollInterval())) {
            AuditTrail trail =
                    new AuditTrail(audit, grant.id(), windowId, grant.target().app(), run.onStep());
            Desktop acting = TimedDesktop.over(shown.desktop(), phases);
            if (Processes.runsCommands(grant.target().pid())) acting = acting.around(commandGrants.captures());
            ScreenedDesktop loopReads = new ScreenedDesktop(acting, secrets::current, inScope, secretFiles);
            ComputerLoop loop = ComputerLoop.builder()
                    .desktop(loopReads.desktop())
                    .screen(() -> loopReads.fired().or(verifierReads::fired))
                    .decider(ask -> phases.time(StepPhases.Phase.MODEL, () -> decider.decide(ask)))
                    .guard(new TimedGuard(guard, phases, guard::approvalNanos))
                    .audit(new AuditSink() {
                        @Override
                        public void intent(ActionIntent intent) {
                            phases.run(StepPhases.Phase.AUDIT, () -> trail.intent(intent));
                        }

                        @Override
                        public void result(ActionResult result) {
                            phases.run(StepPhases.Phase.AUDIT, () -> trail.result(result));
                            LOG.debugf(
                                    "run %s step %d (%s): %s",
                                    request.runId(), result.step(), result.kind(), phases.takeStep());
                        }
                    })
                    .clock(clock)
                    .stop(stop)
                    .preflight(new DesktopPreflight(timed))
                    .scope(scope)
                    .verifier(verifier)
                    .sleeper(d -> sleepUnlessStopped(d, stop))
                    .limits(limits)
                    .deadline(deadline)
                    .build();
            long t0 = System.nanoTime();
            LOG.debugf("run %s: %.1f ms to begin presence and the watcher", request.runId(), (t0 - beforeRun) / 1e6);
            RunResult result = loop.run(request).withUsage(usage.usage());
            shown.finished(result.outcome());
            long host = System.nanoTime() - t0 - decider.modelNanos() - verifierNanos.get() - guard.approvalNanos();
            int steps = Math.max(1, Math.max(result.stepsRun(), decider.turns()));
            notes.model(usage, result.usage(), decider.lastText());
            phases.record(StepPhases.Phase.VERIFY, verifierNanos.get());
            notes.timings(
                    decider.modelNanos(),
                    verifierNanos.get(),
                    guard.approvalNanos(),
                    System.nanoTime() - t0,
                    result.stepsRun(),
                    phases.totals());
            LOG.infof(
                    "run %s: %d steps, %d model turns, host overhead per step %.1f ms (wall minus model, verifier and approval waits); %s",
                    request.runId(), result.stepsRun(), decider.turns(), host / 1e6 / steps, phases.totals());
            return result;
        } finally {
            secretFiles.end();
            closeOwnMenus(desktop, windowId, request.runId());
        }
    }

    /**
     * On the person's display, every run ends with no menu Deckhand opened still holding the keyboard, whatever
     * ended it (done, a refusal, Stop, a crash in the loop): the person's next keystroke must not go to the app's
     * menu (Edit ▸ Paste, a File menu's Quit). A private virtual desktop Deckhand started is exempt (no person
     * types there, and a menu left open lets the next call pick its item).
     */
    private static void closeOwnMenus(Desktop desktop, long windowId, String runId) {
        try {
            if (desktop.display().privateDesktop()) return;
            MenuClosing m = desktop.display().closeOwnMenus(windowId);
            if (m instanceof MenuClosing.Left left) {
                LOG.warnf("run %s: a menu of the granted app may still hold the keyboard: %s", runId, left.why());
            } else if (m instanceof MenuClosing.Closed closed) {
                LOG.infof("run %s: closed the granted app's menu Deckhand opened (%d Escape)", runId, closed.escapes());
            }
        } catch (RuntimeException e) {
            LOG.warnf("run %s: could not close the granted app's menus: %s", runId, e.toString());
        }
    }

    /** Stop for one run: latched once seen, from the person (Stop, revoke) or the MCP client (cancellation). */
    private StopSignal stop(RunRequest request, Grant grant, String sessionId, BooleanSupplier cancelled) {
        GrantBroker broker = grants.broker();
        StopLatch latch = new StopLatch();
        return () -> {
            if (latch.stopRequested()) return true;
            if (cancelled.getAsBoolean()) {
                latch.stop();
                broker.stop("MCP cancellation of " + request.runId());
                return true;
            }
            return broker.usable(sessionId, grant.id())
                    .map(r -> r.code() == RefusalCode.STOPPED || r.code() == RefusalCode.GRANT_REVOKED)
                    .orElse(false);
        };
    }

    /**
     * Carries out a {@code wait} in 10 ms slices and returns early once Stop is requested, so a Stop
     * pressed during a wait ends the run at the loop's next checkpoint instead of after the wait.
     */
    static void sleepUnlessStopped(Duration d, StopSignal stop) throws InterruptedException {
        long end = System.nanoTime() + d.toNanos();
        while (!stop.stopRequested()) {
            long left = end - System.nanoTime();
            if (left <= 0) return;
            Thread.sleep(Math.max(1, Math.min(10, left / 1_000_000)));
        }
    }

    /** The person's price table; an invalid file prices nothing (the cost is unknown, never guessed). */
    private PriceTable prices() {
        try {
            return modelStore.prices();
        } catch (IllegalStateException invalid) {
            LOG.warnf("%s", invalid.getMessage());
            return new PriceTable(java.util.Map.of());
        }
    }

    @PreDestroy
    void shutdown() {
        modelCalls.shutdownNow();
    }
}
