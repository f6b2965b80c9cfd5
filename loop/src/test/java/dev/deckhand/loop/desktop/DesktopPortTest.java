package dev.deckhand.loop.desktop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The port's shape: small parts, no default method in any interface a decorator implements (so a decorator that
 * leaves a method out does not compile instead of falling back to a default), and every method going through an
 * {@link Around} as its own {@link Call} to the same method of the desktop below.
 */
@Tag("pure")
class DesktopPortTest {

    /** The parts of the port: the types of {@link Desktop}'s components. */
    private static List<Class<?>> parts() {
        return Arrays.stream(Desktop.class.getRecordComponents())
                .<Class<?>>map(RecordComponent::getType)
                .toList();
    }

    /** What a decorator implements: every part, and {@link Around}. */
    private static List<Class<?>> decorated() {
        List<Class<?>> all = new ArrayList<>(parts());
        all.add(Around.class);
        return all;
    }

    private static List<Method> methods(Class<?> type) {
        return Arrays.stream(type.getDeclaredMethods())
                .filter(m -> !Modifier.isStatic(m.getModifiers()))
                .filter(m -> !m.isSynthetic())
                .toList();
    }

    static List<String> defaultMethods(Class<?> type) {
        return methods(type).stream()
                .filter(Method::isDefault)
                .map(Method::getName)
                .sorted()
                .toList();
    }

    @Test
    void noInterfaceADecoratorImplementsHasADefaultMethod() {
        for (Class<?> type : decorated()) {
            assertTrue(type.isInterface(), type + " is an interface");
            assertEquals(
                    List.of(),
                    defaultMethods(type),
                    type.getSimpleName() + " declares a default method: a "
                            + "decorator that forgot to override it would fall back to it silently");
        }
    }

    /** A part with a default method, as someone might add one: the check above names it. */
    interface Leaky {
        void read();

        default void readAgain() {
            read();
        }
    }

    @Test
    void theCheckFindsADefaultMethod() {
        assertEquals(List.of("readAgain"), defaultMethods(Leaky.class));
    }

    @Test
    void everyPartIsSmall() {
        assertEquals(6, parts().size(), "display, trees, input, captures, facts, showing");
        for (Class<?> part : parts()) {
            int n = methods(part).size();
            assertTrue(n >= 1 && n <= 8, part.getSimpleName() + " has " + n + " methods");
        }
        assertEquals(1, methods(Around.class).size());
    }

    @Test
    void everyCallGoesThroughAroundAsItsOwnCallToTheSameMethodBelow() throws Exception {
        List<Method> below = new ArrayList<>();
        Object all = Proxy.newProxyInstance(
                Desktop.class.getClassLoader(), parts().toArray(Class<?>[]::new), (proxy, method, args) -> {
                    below.add(method);
                    return zero(method.getReturnType());
                });
        Desktop real = new Desktop((Display) all, (Trees) all, (Input) all, (Captures) all, (Facts) all, (Showing) all);
        List<Call> seen = new ArrayList<>();
        Desktop around = real.around(new Around() {
            @Override
            public <T> T call(Call which, Supplier<T> call) {
                seen.add(which);
                return call.get();
            }
        });
        EnumSet<Call> met = EnumSet.noneOf(Call.class);
        for (RecordComponent c : Desktop.class.getRecordComponents()) {
            Object part = c.getAccessor().invoke(around);
            for (Method m : methods(c.getType())) {
                seen.clear();
                below.clear();
                Object[] args = Arrays.stream(m.getParameterTypes())
                        .map(DesktopPortTest::zero)
                        .toArray();
                m.invoke(part, args);
                assertEquals(1, seen.size(), m + " went through the Around once");
                Call call = seen.get(0);
                assertSame(c.getType(), call.part(), m + " went through as " + call);
                assertTrue(call.name().startsWith(snake(m.getName())), m + " went through as " + call);
                assertEquals(List.of(m), below, m + " reached the same method below");
                assertTrue(met.add(call), "two methods go through as " + call);
            }
        }
        assertEquals(EnumSet.allOf(Call.class), met, "every Call is a method of the port");
    }

    private static String snake(String camel) {
        return camel.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(java.util.Locale.ROOT);
    }

    private static Object zero(Class<?> type) {
        if (type == boolean.class) return false;
        if (type == long.class) return 0L;
        if (type == int.class) return 0;
        if (type == String.class) return "";
        if (type == Duration.class) return Duration.ZERO;
        if (type == Set.class) return Set.of();
        return null;
    }
}
