package dev.deckhand.loop.action;

import java.util.Objects;
import java.util.Set;

/**
 * One action, the unit the model returns per turn (docs/contract.md#actions). On the wire it is one flat JSON
 * object with an {@code action} discriminator ({@link #kind()}); {@link ActionParser} reads it
 * strictly and {@link ActionSchema} describes it. Every record checks its fields in its compact
 * constructor and names the field and the action in the message.
 *
 * <p>Dispatch with an {@code instanceof} chain ending in {@code throw new AssertionError}; a test walks
 * {@code getPermittedSubclasses()}.
 */
public sealed interface Action
        permits Action.Click,
                Action.SetText,
                Action.Type,
                Action.Key,
                Action.Focus,
                Action.Scroll,
                Action.Select,
                Action.ClickAt,
                Action.Wait,
                Action.Done,
                Action.Fail {

    int MAX_UID = 128;
    int MAX_TEXT = 10_000;
    int MAX_KEYS = 64;
    int MAX_OPTION = 1_000;
    int MAX_BASIS = 64;
    int MAX_COORDINATE = 100_000;
    int MIN_SCROLL = 1;
    int MAX_SCROLL = 50;
    int MIN_WAIT_MS = 1;
    int MAX_WAIT_MS = 10_000;
    int MAX_SUMMARY = 2_000;
    Set<String> DIRECTIONS = Set.of("up", "down", "left", "right");

    /** The wire discriminator, e.g. {@code "set_text"}. */
    String kind();

    /** Whether delivering this action gives input to the window (everything but wait, done, fail). */
    default boolean givesInput() {
        return !(this instanceof Wait || this instanceof Done || this instanceof Fail);
    }

    /** {@code click{uid}}: click, press, activate or toggle the element. */
    record Click(String uid) implements Action, ElementAction {
        public Click {
            uid = checkUid(uid, "click");
        }

        @Override
        public String kind() {
            return "click";
        }

        @Override
        public Click withUid(String uid) {
            return new Click(uid);
        }
    }

    /** {@code set_text{uid,text}}: replace the element's text (may be empty to clear it). */
    record SetText(String uid, String text) implements Action, ElementAction {
        public SetText {
            uid = checkUid(uid, "set_text");
            checkText(text, 0, "text", "set_text");
        }

        @Override
        public String kind() {
            return "set_text";
        }

        @Override
        public SetText withUid(String uid) {
            return new SetText(uid, text);
        }

        @Override
        public String toString() {
            return "SetText[uid=" + uid + ", text=<" + text.length() + " chars>]";
        }
    }

    /**
     * {@code type{text}}: type printable text into the window's focused element. C0/C1 control characters
     * (Tab, newline, carriage return, Escape, Backspace, Delete, …) and line/paragraph separators are
     * invalid: Enter, Tab and Escape are {@code key} actions, each checked on its own.
     */
    record Type(String text) implements Action {
        public Type {
            checkText(text, 1, "text", "type");
            checkPrintable(text);
        }

        @Override
        public String kind() {
            return "type";
        }

        @Override
        public String toString() {
            return "Type[text=<" + text.length() + " chars>]";
        }
    }

    /** {@code key{keys}}: a key chord such as {@code ctrl+s}; see {@link KeyChord}. */
    record Key(String keys) implements Action {
        public Key {
            KeyChord.check(keys);
        }

        @Override
        public String kind() {
            return "key";
        }
        /** The chord in its normal form (what the policy judges and the driver sends). */
        public dev.deckhand.grant.Chord chord() {
            return dev.deckhand.grant.Chord.parse(keys);
        }
    }

    /** {@code focus{uid}}. */
    record Focus(String uid) implements Action, ElementAction {
        public Focus {
            uid = checkUid(uid, "focus");
        }

        @Override
        public String kind() {
            return "focus";
        }

        @Override
        public Focus withUid(String uid) {
            return new Focus(uid);
        }
    }

    /** {@code scroll{uid,direction,amount}}: direction up|down|left|right, amount 1..50. */
    record Scroll(String uid, String direction, int amount) implements Action, ElementAction {
        public Scroll {
            uid = checkUid(uid, "scroll");
            if (direction == null) throw new IllegalArgumentException("direction is required for scroll");
            if (!DIRECTIONS.contains(direction)) {
                throw new IllegalArgumentException("direction must be one of up, down, left, right for scroll");
            }
            if (amount < MIN_SCROLL || amount > MAX_SCROLL) {
                throw new IllegalArgumentException(
                        "amount must be between " + MIN_SCROLL + " and " + MAX_SCROLL + " for scroll");
            }
        }

        @Override
        public String kind() {
            return "scroll";
        }

        @Override
        public Scroll withUid(String uid) {
            return new Scroll(uid, direction, amount);
        }
    }

    /** {@code select{uid,option}}: select the child option named {@code option}. */
    record Select(String uid, String option) implements Action, ElementAction {
        public Select {
            uid = checkUid(uid, "select");
            checkText(option, 1, "option", "select");
            if (option.length() > MAX_OPTION) {
                throw new IllegalArgumentException("option must be at most " + MAX_OPTION + " characters for select");
            }
        }

        @Override
        public String kind() {
            return "select";
        }

        @Override
        public Select withUid(String uid) {
            return new Select(uid, option);
        }
    }

    /**
     * {@code click_at{x,y,basis}}: click at capture pixels; {@code basis} is the id of a capture taken
     * in this run (shown to the model with the capture).
     */
    record ClickAt(int x, int y, String basis) implements Action {
        public ClickAt {
            if (x < 0 || x > MAX_COORDINATE)
                throw new IllegalArgumentException("x must be between 0 and " + MAX_COORDINATE + " for click_at");
            if (y < 0 || y > MAX_COORDINATE)
                throw new IllegalArgumentException("y must be between 0 and " + MAX_COORDINATE + " for click_at");
            if (basis == null || basis.isEmpty()) throw new IllegalArgumentException("basis is required for click_at");
            if (basis.length() > MAX_BASIS)
                throw new IllegalArgumentException("basis must be at most " + MAX_BASIS + " characters for click_at");
        }

        @Override
        public String kind() {
            return "click_at";
        }
    }

    /** {@code wait{ms}}: 1..10000 ms. */
    record Wait(int ms) implements Action {
        public Wait {
            if (ms < MIN_WAIT_MS || ms > MAX_WAIT_MS) {
                throw new IllegalArgumentException(
                        "ms must be between " + MIN_WAIT_MS + " and " + MAX_WAIT_MS + " for wait");
            }
        }

        @Override
        public String kind() {
            return "wait";
        }
    }

    /** {@code done{summary}}: the model believes the task is done; only the verifier decides. */
    record Done(String summary) implements Action {
        public Done {
            checkText(summary, 0, "summary", "done");
            if (summary.length() > MAX_SUMMARY)
                throw new IllegalArgumentException("summary must be at most " + MAX_SUMMARY + " characters for done");
        }

        @Override
        public String kind() {
            return "done";
        }
    }

    /** {@code fail{reason}}: the model gives up. */
    record Fail(String reason) implements Action {
        public Fail {
            checkText(reason, 1, "reason", "fail");
            if (reason.length() > MAX_SUMMARY)
                throw new IllegalArgumentException("reason must be at most " + MAX_SUMMARY + " characters for fail");
        }

        @Override
        public String kind() {
            return "fail";
        }
    }

    private static String checkUid(String uid, String action) {
        if (uid == null || uid.isEmpty()) throw new IllegalArgumentException("uid is required for " + action);
        if (uid.length() > MAX_UID)
            throw new IllegalArgumentException("uid must be at most " + MAX_UID + " characters for " + action);
        return uid;
    }

    /**
     * Refuses what {@code type} must not carry, naming the character, where it is and what to send instead.
     */
    private static void checkPrintable(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean control = c < 0x20 || (c >= 0x7f && c <= 0x9f);
            if (control || c == '\u2028' || c == '\u2029') {
                String code = String.format("U+%04X", (int) c);
                String instead =
                        switch (c) {
                            case '\n', '\r', '\u2028', '\u2029', 0x85 ->
                                "send {\"action\":\"key\",\"keys\":\"Enter\"} (key Enter) instead";
                            case '\t' -> "send {\"action\":\"key\",\"keys\":\"Tab\"} (key Tab) instead";
                            case 0x1b -> "send key Escape instead";
                            case '\b' -> "send key BackSpace instead";
                            case 0x7f -> "send key Delete instead";
                            default -> "remove it";
                        };
                throw new IllegalArgumentException("text must be printable for type: " + code + " at index " + i
                        + " is a control character or line separator; split the text and " + instead);
            }
            if (Character.isSurrogate(c)) {
                boolean paired = Character.isHighSurrogate(c)
                        && i + 1 < text.length()
                        && Character.isLowSurrogate(text.charAt(i + 1));
                if (!paired)
                    throw new IllegalArgumentException("text has an unpaired surrogate at index " + i + " for type");
                i++;
            }
        }
    }

    private static void checkText(String text, int min, String field, String action) {
        Objects.requireNonNull(text, () -> field + " is required for " + action);
        if (text.length() < min) throw new IllegalArgumentException(field + " must not be empty for " + action);
        if (text.length() > MAX_TEXT)
            throw new IllegalArgumentException(field + " must be at most " + MAX_TEXT + " characters for " + action);
    }
}
