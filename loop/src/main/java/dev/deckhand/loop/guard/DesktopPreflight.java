package dev.deckhand.loop.guard;

import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.Preflight;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.WindowInfo;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The preflight of docs/design.md#the-run-loop on the desktop port: the display answers, the granted window exists and is
 * mapped, its app is on the accessibility bus if it is expected there (a starting app is waited for, at
 * most {@link #STARTING_BOUND}, then {@code A11Y_UNAVAILABLE}), the screen is not locked (a locked screen
 * still yields captures while input goes nowhere), and the facts can be read (the accessibility bus
 * answers). Each failure is {@code PREFLIGHT_FAILED} naming the check; {@code HEADLESS} and {@code A11Y_UNAVAILABLE} from the driver keep their codes.
 */
public final class DesktopPreflight implements Preflight {

    /** How long a just-mapped window's app is waited for to register on the accessibility bus (docs/design.md#the-run-loop). */
    public static final Duration STARTING_BOUND = Duration.ofSeconds(5);

    private final Desktop desktop;

    public DesktopPreflight(Desktop desktop) {
        this.desktop = Objects.requireNonNull(desktop, "desktop");
    }

    @Override
    public Optional<Refusal> check(long windowId) {
        try {
            Optional<WindowInfo> w = desktop.display().windows().stream()
                    .filter(x -> x.id() == windowId)
                    .findFirst();
            if (w.isEmpty()) {
                return failed("window exists: the granted window 0x" + Long.toHexString(windowId) + " is gone");
            }
            if (w.get().minimised() || !w.get().visible()) {
                return failed("window mapped: window 0x" + Long.toHexString(windowId) + " is minimised or off screen");
            }
            if (desktop.trees().starting(windowId) && !desktop.trees().awaitRegistered(windowId, STARTING_BOUND)) {
                return Optional.of(Refusal.a11yUnavailable("window 0x" + Long.toHexString(windowId) + " (pid "
                        + w.get().pid()
                        + ") loads an accessibility bridge but did not register on the accessibility bus within "
                        + STARTING_BOUND.toSeconds() + " s (accessibility turned off for it, e.g. NO_AT_BRIDGE=1?)"));
            }
            DesktopFacts facts = desktop.facts().current();
            if (facts.screenLock().isPresent()) {
                return failed("screen not locked: the screen is locked ("
                        + facts.screenLock().get() + "); input would go nowhere");
            }
            return Optional.empty();
        } catch (RefusedException e) {
            return Optional.of(
                    e.code() == RefusalCode.HEADLESS || e.code() == RefusalCode.A11Y_UNAVAILABLE
                            ? e.refusal()
                            : Refusal.preflightFailed(e.refusal().toString()));
        }
    }

    private static Optional<Refusal> failed(String detail) {
        return Optional.of(Refusal.preflightFailed(detail));
    }
}
