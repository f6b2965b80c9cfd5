package dev.deckhand.presence;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.doctor.DoctorCheck;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The doctor's stop-shortcut line: green when grabbed, red with the reason and a fix otherwise. */
@Tag("desktop")
class StopShortcutDoctorTest {

    private static StopShortcut started(String keys) {
        StopShortcut s = new StopShortcut();
        s.config = new SmallRyeConfigBuilder()
                .withMapping(PresenceConfig.class)
                .withDefaultValues(Map.of("deckhand.presence.stop-shortcut.keys", keys))
                .build()
                .getConfigMapping(PresenceConfig.class);
        s.start(null);
        return s;
    }

    @Test
    void greenWhenGrabbedRedWhenAnotherClientHoldsTheChord() {
        if (System.getenv("DISPLAY") == null)
            throw new AssertionError("needs the virtual desktop (scripts/desktop.sh run)");
        StopShortcut first = started("ctrl+alt+shift+F12");
        try {
            DoctorCheck.Result ok = first.check();
            assertTrue(ok.ok(), ok::toString);
            StopShortcut second = started("ctrl+alt+shift+F12");
            try {
                DoctorCheck.Result taken = second.check();
                assertFalse(taken.ok());
                assertTrue(taken.detail().contains("BadAccess"), taken.detail());
                assertNotNull(taken.fix());
            } finally {
                second.stop(null);
            }
        } finally {
            first.stop(null);
        }
    }

    @Test
    void redForAChordThatCannotBeRead() {
        if (System.getenv("DISPLAY") == null)
            throw new AssertionError("needs the virtual desktop (scripts/desktop.sh run)");
        StopShortcut s = started("ctrl+NoSuchKey");
        try {
            DoctorCheck.Result r = s.check();
            assertFalse(r.ok());
            assertTrue(r.detail().contains("cannot be read"), r.detail());
            assertTrue(r.fix().contains("deckhand.presence.stop-shortcut.keys"), r.fix());
        } finally {
            s.stop(null);
        }
    }
}
