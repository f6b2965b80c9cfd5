package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * libatspi is process-wide, so one thread per process drives it, not one per class loader: a Quarkus test
 * application loads the driver again beside the plain test classes in the same JVM, and two threads calling
 * and pumping libatspi at once freed its listener entries twice (the JVM aborted, "Dereferencing invalid
 * callback", when a second test class opened its desktop). Here a second class loader holds its own copy of this
 * package, as a Quarkus application does.
 */
@Tag("desktop")
class OneLibatspiThreadTest {

    /** Defines its own copy of every class of this package, everything else from the test's class loader. */
    private static final class PackageCopy extends ClassLoader {
        private static final String PACKAGE = AtspiBridge.class.getPackageName() + ".";

        PackageCopy() {
            super(OneLibatspiThreadTest.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith(PACKAGE)) return super.loadClass(name, resolve);
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                        if (in == null) throw new ClassNotFoundException(name);
                        byte[] bytes = in.readAllBytes();
                        c = defineClass(name, bytes, 0, bytes.length);
                    } catch (IOException e) {
                        throw new ClassNotFoundException(name, e);
                    }
                }
                if (resolve) resolveClass(c);
                return c;
            }
        }
    }

    @Test
    void aSecondClassLoadersCallsRunOnTheOneThreadThatOwnsLibatspi() throws Exception {
        TestApp.requireDesktop();
        ClassLoader other = new PackageCopy();
        Class<?> otherBridge = other.loadClass(AtspiBridge.class.getName());
        assertNotSame(AtspiBridge.class, otherBridge, "the other loader has its own copy of the driver");
        Method start = otherBridge.getMethod("start");
        Class<?> otherThreadClass = other.loadClass(AtspiThread.class.getName());
        Method shared = otherThreadClass.getDeclaredMethod("shared");
        shared.setAccessible(true);
        Method call = otherThreadClass.getDeclaredMethod("call", String.class, Duration.class, Callable.class);
        call.setAccessible(true);
        Callable<Thread> which = Thread::currentThread;

        Path canvas = Path.of(OneLibatspiThreadTest.class
                .getResource("/dev/deckhand/apps/canvas_app.py")
                .toURI());
        try (TestApp app = TestApp.launch(List.of("/usr/bin/python3", canvas.toString(), "Deckhand Canvas"))) {
            // open and close a bridge through each loader, overlapping, three times (as test classes and a test
            // application do in one JVM); both read the app's window while its events arrive
            for (int round = 0; round < 3; round++) {
                try (AtspiBridge here = AtspiBridge.start();
                        AutoCloseable there = (AutoCloseable) start.invoke(null)) {
                    Thread ours = AtspiThread.shared().call("which thread", Duration.ofSeconds(5), which);
                    Thread theirs =
                            (Thread) call.invoke(shared.invoke(null), "which thread", Duration.ofSeconds(5), which);
                    assertSame(ours, theirs, "both class loaders' calls run on one thread (round " + round + ")");
                    Method owner = otherThreadClass.getDeclaredMethod("owner");
                    owner.setAccessible(true);
                    assertFalse(
                            AtspiThread.shared().owner() && (Boolean) owner.invoke(shared.invoke(null)),
                            "at most one copy owns libatspi, the other relays to it");
                    assertEquals("Deckhand Canvas", app.awaitWindow(here, "Deckhand Canvas"::equals, 30_000));
                    Object titles =
                            otherBridge.getMethod("windowTitles", int.class).invoke(there, app.pid());
                    assertEquals(
                            here.windowTitles(app.pid()), titles, "the other loader's bridge reads the same window");
                }
            }
        }
    }
}
