package dev.deckhand.grant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Every refusal code has its named factory (a new code cannot be forgotten), and nothing else is one. */
@Tag("pure")
class RefusalFactoriesTest {

    static String factoryName(RefusalCode code) {
        String[] parts = code.name().toLowerCase(Locale.ROOT).split("_");
        StringBuilder b = new StringBuilder(parts[0]);
        for (int i = 1; i < parts.length; i++)
            b.append(Character.toUpperCase(parts[i].charAt(0))).append(parts[i].substring(1));
        return b.toString();
    }

    @Test
    void everyCodeHasAFactoryNamedByIt() throws Exception {
        for (RefusalCode code : RefusalCode.values()) {
            Method m = Refusal.class.getMethod(factoryName(code), String.class);
            assertTrue(Modifier.isStatic(m.getModifiers()), m.toString());
            Refusal r = (Refusal) m.invoke(null, "what fired");
            assertEquals(code, r.code(), m.getName());
            assertEquals("what fired", r.detail());
            assertEquals(code + ": what fired", r.toString());
            InvocationTargetException blank = assertThrows(InvocationTargetException.class, () -> m.invoke(null, " "));
            assertTrue(blank.getCause() instanceof IllegalArgumentException, m.getName());
        }
    }

    @Test
    void theFactoriesAreExactlyTheCodes() {
        Set<String> expected = Arrays.stream(RefusalCode.values())
                .map(RefusalFactoriesTest::factoryName)
                .collect(Collectors.toSet());
        Set<String> factories = Arrays.stream(Refusal.class.getDeclaredMethods())
                .filter(m -> Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getModifiers()))
                .filter(m -> m.getReturnType() == Refusal.class && !m.getName().equals("of"))
                .map(Method::getName)
                .collect(Collectors.toSet());
        assertEquals(expected, factories);
    }

    @Test
    void anExceptionCarriesTheRefusalItWasGiven() {
        Refusal r = Refusal.ownWindow("Deckhand's page");
        RefusedException e = new RefusedException(r);
        assertEquals(r, e.refusal());
        assertEquals(RefusalCode.OWN_WINDOW, e.code());
        assertEquals("OWN_WINDOW: Deckhand's page", e.getMessage());
    }
}
