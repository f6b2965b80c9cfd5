package dev.deckhand.grant;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Shared test data: a mousepad window granted, Deckhand's page in Chromium, another app. */
final class Fixtures {

    static final long TARGET = 0x100;
    static final long OWN_PAGE = 0x200;
    static final long OTHER = 0x300;
    static final long TARGET_SIBLING = 0x400;
    static final long REV = 7;

    static final Facts.WindowFact TARGET_WINDOW = new Facts.WindowFact(TARGET, "Mousepad", "notes.txt", false, true);
    static final Facts.WindowFact OWN_WINDOW = new Facts.WindowFact(OWN_PAGE, "Chromium", "Deckhand", true, true);
    static final Facts.WindowFact OTHER_WINDOW = new Facts.WindowFact(OTHER, "gedit", "other", false, true);
    static final Facts.WindowFact SIBLING_WINDOW =
            new Facts.WindowFact(TARGET_SIBLING, "Mousepad", "second", false, true);

    static final ProposedAction.Element OK_BUTTON = new ProposedAction.Element("push button", "OK", false, false);
    static final ProposedAction.Element SEND_BUTTON = new ProposedAction.Element("push button", "Send", false, false);
    static final ProposedAction.Element COMPOSE = new ProposedAction.Element("text", "Message body", false, true);
    static final ProposedAction.Element LINE = new ProposedAction.Element("text", "Search", false, false);

    private Fixtures() {}

    static Facts quiet() {
        return Facts.of(
                Set.of("mousepad", "chromium", "gedit"),
                List.of(TARGET_WINDOW, OWN_WINDOW, OTHER_WINDOW, SIBLING_WINDOW));
    }

    static Grant grant(ScopeKind scope, InputPolicy policy, CaptureMode capture, Set<String> consequential) {
        return grant(scope, policy, capture, consequential, false);
    }

    /** {@link #grant} with blind input allowed or not. */
    static Grant grant(
            ScopeKind scope, InputPolicy policy, CaptureMode capture, Set<String> consequential, boolean blindInput) {
        return new Grant(
                "g-test",
                new GrantTarget(TARGET, "mousepad", "notes.txt"),
                scope,
                REV,
                10,
                Duration.ofMinutes(5),
                Instant.parse("2026-01-01T00:00:00Z"),
                policy,
                capture,
                consequential,
                blindInput,
                Optional.of("s1"));
    }

    static Grant autonomous() {
        return grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, Set.of());
    }

    static Grant confirmEach() {
        return grant(ScopeKind.WINDOW, InputPolicy.CONFIRM_EACH, CaptureMode.PIXELS, Set.of());
    }

    static PolicyConfig auto() {
        return PolicyConfig.defaults().withPermissionMode(PermissionMode.AUTO);
    }

    static ProposedAction click(ProposedAction.Element e) {
        return ProposedAction.on(ActionKind.CLICK, REV, TARGET, e);
    }

    static BasisInfo basis() {
        return new BasisInfo(REV, TARGET, 10, 20, 800, 600, 0.5);
    }
}
