package dev.deckhand.platform.x11;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * A parsed key chord such as {@code ctrl+s}, {@code ctrl+shift+Tab}, {@code alt+F4}, {@code Return}:
 * zero or more modifiers and exactly one key, as an X keysym.
 *
 * <p>Modifiers (case-insensitive): {@code ctrl}/{@code control}, {@code shift}, {@code alt}/{@code meta}
 * (Mod1), {@code super}/{@code win}/{@code cmd} (Mod4). The key is one character (its keysym, see
 * {@link #keysymOf(int)}), a friendly alias ({@code enter}, {@code esc}, {@code del}, {@code space},
 * {@code pgup}, {@code pgdn}, {@code up}, ...), or any X keysym name ({@code Return}, {@code F5},
 * {@code Page_Up}, {@code KP_Add}).
 *
 * @param modifiers X modifier mask (ShiftMask, ControlMask, Mod1Mask, Mod4Mask)
 * @param keysym the key's X keysym
 */
record KeyChord(int modifiers, long keysym) {

    private static final Map<String, Integer> MODIFIERS = Map.of(
            "ctrl", Xlib.ControlMask, "control", Xlib.ControlMask, "shift", Xlib.ShiftMask,
            "alt", Xlib.Mod1Mask, "meta", Xlib.Mod1Mask,
            "super", Xlib.Mod4Mask, "win", Xlib.Mod4Mask, "cmd", Xlib.Mod4Mask);

    private static final Map<String, String> ALIASES = Map.ofEntries(
            Map.entry("enter", "Return"), Map.entry("return", "Return"), Map.entry("esc", "Escape"),
            Map.entry("escape", "Escape"), Map.entry("del", "Delete"), Map.entry("delete", "Delete"),
            Map.entry("backspace", "BackSpace"), Map.entry("tab", "Tab"), Map.entry("space", "space"),
            Map.entry("pgup", "Prior"), Map.entry("pageup", "Prior"), Map.entry("page_up", "Prior"),
            Map.entry("pgdn", "Next"), Map.entry("pagedown", "Next"), Map.entry("page_down", "Next"),
            Map.entry("up", "Up"), Map.entry("down", "Down"), Map.entry("left", "Left"),
            Map.entry("right", "Right"), Map.entry("home", "Home"), Map.entry("end", "End"),
            Map.entry("insert", "Insert"), Map.entry("ins", "Insert"), Map.entry("plus", "plus"),
            Map.entry("minus", "minus"), Map.entry("menu", "Menu"));

    KeyChord {
        if (keysym <= 0) throw new IllegalArgumentException("keysym must be > 0, was " + keysym);
    }

    /**
     * Parses {@code chord}; {@code keysymNamed} resolves X keysym names (XStringToKeysym, 0 when
     * unknown).
     *
     * @throws IllegalArgumentException naming the chord when a part is empty or unknown
     */
    static KeyChord parse(String chord, ToLongFunction<String> keysymNamed) {
        Objects.requireNonNull(chord, "chord");
        String trimmed = chord.strip();
        if (trimmed.isEmpty()) throw new IllegalArgumentException("keys must not be empty");
        // "ctrl++" means ctrl and the plus key: the last part may itself be "+".
        String keyPart;
        String modPart;
        if (trimmed.endsWith("++") || trimmed.equals("+")) {
            keyPart = "+";
            modPart = trimmed.substring(0, trimmed.length() - 1);
        } else {
            int cut = trimmed.lastIndexOf('+');
            keyPart = trimmed.substring(cut + 1);
            modPart = cut < 0 ? "" : trimmed.substring(0, cut + 1);
        }
        int mods = 0;
        if (!modPart.isEmpty()) {
            for (String m : modPart.substring(0, modPart.length() - 1).split("\\+", -1)) {
                Integer mask = MODIFIERS.get(m.strip().toLowerCase(Locale.ROOT));
                if (mask == null) {
                    throw new IllegalArgumentException("unknown modifier '" + m.strip() + "' in keys '" + chord + "'");
                }
                mods |= mask;
            }
        }
        String key = keyPart.strip().isEmpty() && !keyPart.isEmpty() ? " " : keyPart.strip();
        if (key.isEmpty()) throw new IllegalArgumentException("keys '" + chord + "' name no key after the modifiers");
        long keysym;
        if (key.codePointCount(0, key.length()) == 1) {
            keysym = keysymOf(key.codePointAt(0));
        } else {
            String name = ALIASES.getOrDefault(key.toLowerCase(Locale.ROOT), key);
            keysym = keysymNamed.applyAsLong(name);
            if (keysym == 0) throw new IllegalArgumentException("unknown key '" + key + "' in keys '" + chord + "'");
        }
        return new KeyChord(mods, keysym);
    }

    /**
     * The X keysym that types code point {@code cp}: Latin-1 printable characters are their own
     * keysym, newline/tab/backspace/escape map to Return/Tab/BackSpace/Escape, everything else is a
     * Unicode keysym ({@code 0x01000000 | cp}).
     *
     * @throws IllegalArgumentException for other control characters
     */
    static long keysymOf(int cp) {
        switch (cp) {
            case '\n': case '\r': return 0xff0dL; // Return
            case '\t': return 0xff09L; // Tab
            case '\b': return 0xff08L; // BackSpace
            case 0x1b: return 0xff1bL; // Escape
            case 0x7f: return 0xffffL; // Delete
            default: break;
        }
        if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff)) return cp;
        if (Character.isISOControl(cp)) {
            throw new IllegalArgumentException("text contains control character U+" + String.format("%04X", cp));
        }
        return 0x01000000L | cp;
    }
}
