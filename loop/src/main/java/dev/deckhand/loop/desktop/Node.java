package dev.deckhand.loop.desktop;

import java.util.Objects;
import java.util.Set;

/**
 * One element of a scoped accessibility tree.
 *
 * @param uid opaque, random, minted for one grant revision; meaningless outside it
 * @param depth 0 for the window's root
 * @param role the platform's role name in lower case (AT-SPI: "push button", "password text", ...)
 * @param name accessible name, never null
 * @param hasValue whether the element carries a text or numeric value
 * @param value the value, or null when there is none or the element is a password field
 * @param bounds screen coordinates, or null when the platform gives none
 * @param singleLine a text the platform says is single-line (AT-SPI SINGLE_LINE); false when unknown
 * @param isDefault the window's default button (AT-SPI IS_DEFAULT)
 * @param states the platform's other state names in lower case ({@code checked}, {@code selected},
 *     {@code expanded}, ...; AT-SPI's names), for verifiers; empty when not read
 * @param description the accessible description ("" when none): where toolkits put a tooltip (GTK 3, Qt) or a
 *     web page's {@code aria-describedby} and {@code title}; for the consequential gate, never shown to the model
 * @param text the text a control shows when it is not its value ("" when none or not read): a web button's
 *     visible text under an {@code aria-label} that names it otherwise; for the consequential gate, never shown
 *     to the model
 */
public record Node(
        String uid,
        int depth,
        String role,
        String name,
        boolean hasValue,
        String value,
        boolean enabled,
        boolean focused,
        boolean editable,
        boolean showing,
        Geometry bounds,
        boolean singleLine,
        boolean isDefault,
        Set<String> states,
        String description,
        String text) {

    /** A node with no description and no shown text read. */
    public Node(
            String uid,
            int depth,
            String role,
            String name,
            boolean hasValue,
            String value,
            boolean enabled,
            boolean focused,
            boolean editable,
            boolean showing,
            Geometry bounds,
            boolean singleLine,
            boolean isDefault,
            Set<String> states) {
        this(
                uid,
                depth,
                role,
                name,
                hasValue,
                value,
                enabled,
                focused,
                editable,
                showing,
                bounds,
                singleLine,
                isDefault,
                states,
                "",
                "");
    }

    /** A node whose other states were not read. */
    public Node(
            String uid,
            int depth,
            String role,
            String name,
            boolean hasValue,
            String value,
            boolean enabled,
            boolean focused,
            boolean editable,
            boolean showing,
            Geometry bounds,
            boolean singleLine,
            boolean isDefault) {
        this(
                uid,
                depth,
                role,
                name,
                hasValue,
                value,
                enabled,
                focused,
                editable,
                showing,
                bounds,
                singleLine,
                isDefault,
                Set.of());
    }

    /** A node with neither the single-line nor the default state. */
    public Node(
            String uid,
            int depth,
            String role,
            String name,
            boolean hasValue,
            String value,
            boolean enabled,
            boolean focused,
            boolean editable,
            boolean showing,
            Geometry bounds) {
        this(uid, depth, role, name, hasValue, value, enabled, focused, editable, showing, bounds, false, false);
    }

    public Node {
        Objects.requireNonNull(uid, "uid");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(name, "name");
        states = Set.copyOf(Objects.requireNonNull(states, "states"));
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(text, "text");
        if (depth < 0) throw new IllegalArgumentException("depth must be >= 0, was " + depth);
        if ("password text".equals(role) && value != null) {
            throw new IllegalArgumentException("value of a password text node must be null");
        }
    }

    /** This node with its description and shown text. */
    public Node withShown(String description, String text) {
        return new Node(
                uid,
                depth,
                role,
                name,
                hasValue,
                value,
                enabled,
                focused,
                editable,
                showing,
                bounds,
                singleLine,
                isDefault,
                states,
                description,
                text);
    }
}
