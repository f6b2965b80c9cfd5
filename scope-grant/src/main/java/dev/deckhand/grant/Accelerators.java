package dev.deckhand.grant;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The keyboard accelerators of a window's menu items, as the accessibility tree shows them: a chord that
 * is one is judged as a click on its item ({@link Consequential}). {@code ctrl+Return} bound to "Send"
 * sends however it reaches the app.
 *
 * @param items the menu items each chord runs (normalised chords; collapsed menus included)
 * @param state whether the window's accelerators were read
 */
public record Accelerators(Map<Chord, List<ProposedAction.Element>> items, State state) {

    /** What is known of a window's accelerators. */
    public enum State {
        /** Read from the window's menus (also when it has none). */
        READ,
        /** Not read: no accessibility tree, or the platform reads none (nothing is decided from them). */
        UNKNOWN,
        /**
         * The window has menu items but its toolkit shows none of their key bindings: a chord with
         * {@code ctrl} may run any of them, so it cannot be judged (measured: docs/security.md).
         */
        UNREADABLE
    }

    /** Nothing known: no chord is an accelerator, none is refused for it. */
    public static final Accelerators UNKNOWN = new Accelerators(Map.of(), State.UNKNOWN);

    public Accelerators {
        Objects.requireNonNull(items, "items");
        Objects.requireNonNull(state, "state");
        Map<Chord, List<ProposedAction.Element>> copy = new LinkedHashMap<>();
        items.forEach((c, l) -> copy.put(Objects.requireNonNull(c, "chord"), List.copyOf(l)));
        items = Collections.unmodifiableMap(copy);
    }

    /** The menu items {@code chord} runs, empty when it is no accelerator. */
    public List<ProposedAction.Element> itemsOf(Chord chord) {
        return items.getOrDefault(chord, List.of());
    }

    /** One key-binding string a menu item shows. */
    public record Binding(ProposedAction.Element item, String text) {
        public Binding {
            Objects.requireNonNull(item, "item");
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * Accelerators read from menu items' binding strings ({@link Chord#fromBinding}); {@link State#UNREADABLE}
     * when there are menu items ({@code menuItems} > 0) and not one of them shows any binding.
     */
    public static Accelerators read(List<Binding> bindings, int menuItems) {
        Map<Chord, List<ProposedAction.Element>> out = new LinkedHashMap<>();
        boolean anyBinding = false;
        for (Binding b : bindings) {
            anyBinding |= !b.text().isBlank();
            Chord.fromBinding(b.text()).ifPresent(c -> {
                List<ProposedAction.Element> l = new java.util.ArrayList<>(out.getOrDefault(c, List.of()));
                if (!l.contains(b.item())) l.add(b.item());
                out.put(c, l);
            });
        }
        return new Accelerators(out, menuItems > 0 && !anyBinding ? State.UNREADABLE : State.READ);
    }
}
