package dev.deckhand.loop.desktop;

import java.util.function.Supplier;

/**
 * What a decorator does around every call of the {@link Desktop} port, whatever its part: the step timing and
 * the drawn cursor's presence are two ({@link Desktop#around}). It sees which call it is ({@link Call}, with its
 * {@link Call.Kind}) and the call itself, and it cannot miss one: every method of every part goes through it.
 */
public interface Around {

    /**
     * Runs {@code call} (the port's method {@code which}, on the desktop below) and returns what it returns, its
     * refusals included; may do something before and after it, never changes its arguments or its answer.
     */
    <T> T call(Call which, Supplier<T> call);
}
