package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The parts of the bridge that need no desktop, and the no-bus path in a child JVM. */
@Tag("app")
class AtspiBridgeOfflineTest {

    private static Node node(String uid, int depth, Geometry bounds) {
        return new Node(uid, depth, "panel", "", false, null, true, false, false, true, bounds);
    }

    @Test
    void processAliveTellsARunningProcessFromAZombieAndAnEndedOne() throws Exception {
        assertTrue(AtspiCalls.processAlive((int) ProcessHandle.current().pid()), "this JVM");
        // A child that exited is a zombie until reaped; read /proc before Java's reaper may run.
        Process child = new ProcessBuilder("sh", "-c", "exit 0").start();
        int pid = (int) child.pid();
        assertTrue(child.waitFor(10, TimeUnit.SECONDS));
        assertEquals(false, AtspiCalls.processAlive(pid), "an exited child, zombie or reaped");
        assertEquals(false, AtspiCalls.processAlive(Integer.MAX_VALUE), "no such pid");
    }

    @Test
    void hitPicksTheDeepestContainingElement() {
        List<Node> nodes = List.of(
                node("uRoot0", 0, new Geometry(0, 0, 100, 100)),
                node("uLeft0", 1, new Geometry(0, 0, 50, 100)),
                node("uBtn00", 2, new Geometry(10, 10, 20, 20)),
                node("uRight", 1, new Geometry(50, 0, 50, 100)),
                node("uNoBnd", 3, null));
        assertEquals(Optional.of("uBtn00"), LatestNodes.hit(nodes, 15, 15));
        assertEquals(Optional.of("uLeft0"), LatestNodes.hit(nodes, 40, 40));
        assertEquals(Optional.of("uRight"), LatestNodes.hit(nodes, 60, 60));
        assertEquals(Optional.empty(), LatestNodes.hit(nodes, 200, 200));
    }

    @Test
    void hostOfReadsTheUrlHost() {
        assertEquals(Optional.of("example.org"), AtspiFacts.hostOf("https://Example.org/a?b"));
        // a page without a host is its scheme: a local document, or a browser's own page
        assertEquals(Optional.of("about:"), AtspiFacts.hostOf("about:blank"));
        assertEquals(Optional.of("file:"), AtspiFacts.hostOf("file:///home/me/form.html"));
        assertEquals(Optional.of("chrome:"), AtspiFacts.hostOf("chrome://password-manager/passwords"));
        assertEquals(Optional.of("view-source:"), AtspiFacts.hostOf("view-source:https://example.org/"));
        assertEquals(Optional.of("ftp:"), AtspiFacts.hostOf("ftp://example.org/"));
        assertEquals(Optional.empty(), AtspiFacts.hostOf("https:///nohost"));
        assertEquals(Optional.empty(), AtspiFacts.hostOf("not a url"));
    }

    @Test
    void noBusIsNamedBeforeLibatspiIsTouched() {
        String reason = AtspiBus.busMissingReason(Map.of());
        assertNotNull(reason);
        assertTrue(reason.contains("AT_SPI_BUS"), reason);
        assertNull(AtspiBus.busMissingReason(Map.of("AT_SPI_BUS_ADDRESS", "unix:path=/x")));
        assertNull(AtspiBus.busMissingReason(Map.of("DBUS_SESSION_BUS_ADDRESS", "unix:path=/x")));
    }

    @Test
    void uidsAreOpaqueAndAvoidTakenOnes() {
        UidMint mint = new UidMint(new SecureRandom());
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String uid = mint.mint(seen::contains);
            assertTrue(uid.matches("u[0-9A-Za-z]{5}"), uid);
            assertTrue(seen.add(uid));
        }
    }

    @Test
    void textGoesToLibatspiAsNulTerminatedUtf8() {
        byte[] z = AtspiCalls.nulTerminated("grüße ✓ 日本");
        assertEquals(0, z[z.length - 1]);
        byte[] expected = "grüße ✓ 日本".getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(expected, java.util.Arrays.copyOf(z, z.length - 1));
        assertEquals("3", AtspiCalls.formatNumber(3.0));
        assertEquals("2.5", AtspiCalls.formatNumber(2.5));
    }

    /** libatspi g_error()s (SIGTRAP, exit 133) on a missing bus: the bridge must refuse first. */
    @Test
    void startWithoutAnyBusRefusesInsteadOfKillingTheJvm() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(
                        java, "-cp", System.getProperty("java.class.path"), AtspiDump.class.getName(), "1")
                .redirectErrorStream(true);
        pb.environment()
                .keySet()
                .removeIf(k -> k.equals("DISPLAY")
                        || k.startsWith("DBUS")
                        || k.startsWith("AT_SPI")
                        || k.equals("WAYLAND_DISPLAY"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertNotEquals(133, p.exitValue(), out);
        assertTrue(out.contains("A11Y_UNAVAILABLE"), out);
    }

    @Test
    void startWithADeadBusRefusesInsteadOfKillingTheJvm() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(
                        java, "-cp", System.getProperty("java.class.path"), AtspiDump.class.getName(), "1")
                .redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.equals("DISPLAY") || k.startsWith("DBUS") || k.startsWith("AT_SPI"));
        pb.environment().put("AT_SPI_BUS_ADDRESS", "unix:path=/nonexistent/deckhand-bus");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertNotEquals(133, p.exitValue(), out);
        assertTrue(out.contains("A11Y_UNAVAILABLE"), out);
    }
}
