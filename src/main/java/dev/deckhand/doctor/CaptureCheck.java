package dev.deckhand.doctor;

import dev.deckhand.grant.Policy;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Capture;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.loop.guard.FactsMapper;
import dev.deckhand.platform.Desktops;
import dev.deckhand.policy.PolicyStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * The capture path: one tiny capture (64 px long edge, discarded) of the first visible window the
 * policy would let the person grant; a window the policy refuses is never captured.
 */
@ApplicationScoped
public class CaptureCheck implements DoctorCheck {

    static final String ID = "capture";
    static final String TITLE = "Screen capture path (X11)";

    @Inject
    Desktops desktops;

    @Inject
    PolicyStore policy;

    @Override
    public Result check() {
        DesktopFacts facts;
        PolicyConfig config;
        try {
            facts = desktops.desktop().facts().current();
            config = policy.current();
        } catch (RefusedException e) {
            return Result.failed(
                    ID,
                    TITLE,
                    e.code() + ": " + e.refusal().detail(),
                    "fix the display, accessibility-bus and config checks first");
        }
        Optional<WindowInfo> sample = facts.windows().stream()
                .filter(w -> w.visible() && !w.own())
                .filter(w -> Policy.grantable(config, FactsMapper.facts(facts, w.id()), w.id())
                        .isEmpty())
                .reduce((a, b) -> b);
        if (sample.isEmpty()) {
            return Result.ok(
                    ID,
                    TITLE,
                    "no grantable window is open to try a capture on; captures use the X server (XGetImage)");
        }
        try {
            Capture c = desktops.desktop().captures().capture(sample.get().id(), 0, 64);
            return Result.ok(
                    ID,
                    TITLE,
                    "XGetImage works: a " + c.width() + "×" + c.height() + " test capture of "
                            + AppsProbe.name(sample.get()) + " (discarded)");
        } catch (RefusedException e) {
            return Result.failed(
                    ID,
                    TITLE,
                    e.code() + ": " + e.refusal().detail(),
                    "captures need an X11 window that is mapped and on screen; a Wayland-native window cannot be captured");
        }
    }
}
