package dev.deckhand.platform.wayland;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.DenyScan;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.loop.guard.FactsMapper;
import dev.deckhand.platform.atspi.TestApp;
import dev.deckhand.platform.linux.LinuxDesktop;
import dev.deckhand.platform.linux.MixedDesktop;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A communications app on Wayland counts as seen whenever it has a frame (docs/wayland.md: Wayland gives no
 * reliable showing state): a native Wayland client whose application name is {@code slack} (a zenity
 * started through a link of that name, as GTK names an app after its program) is in the facts' windows,
 * visible, and the deny scan refuses {@code DENY_COMMS_VISIBLE} naming it.
 */
@Tag("desktop")
class CommsFrameWaylandTest {

    @Test
    void aCommsAppWithAFrameIsSeenByTheDenyScan() throws Exception {
        TestApp.requireDesktop();
        Path dir = Files.createTempDirectory("deckhand-wayland-comms");
        Path slack = Files.createSymbolicLink(dir.resolve("slack"), Path.of("/usr/bin/zenity"));
        try (WestonSession weston = WestonSession.start();
                MixedDesktop desktop = new MixedDesktop(LinuxDesktop.open());
                TestApp chat = weston.launch(slack.toString(), "--info", "--title", "chat", "--text", "a message")) {
            Optional<WindowInfo> seen = Optional.empty();
            DesktopFacts facts = null;
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (seen.isEmpty() && System.nanoTime() < deadline) {
                assertTrue(chat.alive(), () -> "the chat app exited early; log: " + chat.log());
                facts = desktop.facts();
                seen = facts.windows().stream()
                        .filter(w -> w.pid() == chat.pid())
                        .findFirst();
                if (seen.isEmpty()) Thread.sleep(100);
            }
            assertTrue(seen.isPresent(), "the chat app's frame is in the facts within 30 s");
            assertTrue(FrameIds.isFrameId(seen.get().id()), "on the Wayland route: " + seen.get());
            assertTrue(seen.get().visible(), "counted visible: " + seen.get());
            assertEquals(
                    "slack",
                    seen.get().app().toLowerCase(java.util.Locale.ROOT),
                    seen.get().toString());
            Optional<Refusal> deny = DenyScan.scan(PolicyConfig.defaults(), FactsMapper.facts(facts, 0));
            assertTrue(deny.isPresent(), "the deny scan fires");
            assertEquals(
                    RefusalCode.DENY_COMMS_VISIBLE,
                    deny.get().code(),
                    deny.get().detail());
            assertTrue(deny.get().detail().contains("slack"), deny.get().detail());
        } finally {
            Files.deleteIfExists(slack);
        }
    }
}
