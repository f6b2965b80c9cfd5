package dev.deckhand.run;

import dev.deckhand.loop.desktop.Captures;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.desktop.Display;
import dev.deckhand.loop.desktop.Facts;
import dev.deckhand.loop.desktop.Input;
import dev.deckhand.loop.desktop.Showing;
import dev.deckhand.loop.desktop.Trees;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;

/** A desktop whose every part is one proxy (the decorators' tests: what reaches the desktop below, and when). */
final class PortProxy {

    private PortProxy() {}

    static Desktop of(InvocationHandler h) {
        Object all = Proxy.newProxyInstance(
                Desktop.class.getClassLoader(),
                new Class<?>[] {Display.class, Trees.class, Input.class, Captures.class, Facts.class, Showing.class},
                h);
        return new Desktop((Display) all, (Trees) all, (Input) all, (Captures) all, (Facts) all, (Showing) all);
    }

    /** The empty answer of a method returning {@code type}: false, 0 or null. */
    static Object zero(Class<?> type) {
        if (type == boolean.class) return false;
        if (type == long.class) return 0L;
        if (type == int.class) return 0;
        return null;
    }
}
