package dev.deckhand.grant;

import java.util.Objects;
import java.util.Optional;

/**
 * One action the loop is about to deliver, reduced to what the policy needs. Never carries typed text.
 *
 * @param kind the action kind
 * @param decidedAtRevision the grant revision the action was decided under (its uids and basis belong to it)
 * @param targetWindowId the window the action lands in
 * @param element the target element (for {@code key}/{@code type}: the focused element), if known
 * @param keys the chord of a {@code key} action
 * @param textHasNewline a {@code type} action's text contains a line break
 * @param basis the capture basis a {@code click_at} was computed against
 * @param approved a valid approval for this action's batch, bound to the current revision and basis,
 *     has been consumed ({@link ApprovalBook#consume})
 */
public record ProposedAction(ActionKind kind, long decidedAtRevision, long targetWindowId,
        Optional<Element> element, Optional<String> keys, boolean textHasNewline, Optional<BasisInfo> basis,
        boolean approved) {

    public ProposedAction {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(element, "element");
        Objects.requireNonNull(keys, "keys");
        if (kind == ActionKind.KEY && (keys.isEmpty() || keys.get().isBlank())) {
            throw new IllegalArgumentException("keys is required for key");
        }
        Objects.requireNonNull(basis, "basis");
    }

    /**
     * A target element as the accessibility tree shows it.
     *
     * @param role platform role in lower case ({@code push button}, {@code text}, {@code password text})
     * @param name accessible name, "" when unnamed
     * @param own the element belongs to one of Deckhand's own surfaces
     * @param multiLine a multi-line / compose text field (AT-SPI state MULTI_LINE)
     */
    public record Element(String role, String name, boolean own, boolean multiLine) {
        public Element {
            Objects.requireNonNull(role, "element.role");
            Objects.requireNonNull(name, "element.name");
        }
    }

    /** An action on an element (click, set_text, focus, scroll, select). */
    public static ProposedAction on(ActionKind kind, long revision, long windowId, Element element) {
        return new ProposedAction(kind, revision, windowId, Optional.of(element), Optional.empty(), false,
                Optional.empty(), false);
    }

    /** A key chord delivered to the focused element ({@code focused} may be null when unknown). */
    public static ProposedAction key(String keys, long revision, long windowId, Element focused) {
        return new ProposedAction(ActionKind.KEY, revision, windowId, Optional.ofNullable(focused),
                Optional.of(keys), false, Optional.empty(), false);
    }

    /** Coordinate input against a capture basis; {@code hit} is the element at the point, when known. */
    public static ProposedAction clickAt(long revision, long windowId, BasisInfo basis, Element hit) {
        return new ProposedAction(ActionKind.CLICK_AT, revision, windowId, Optional.ofNullable(hit),
                Optional.empty(), false, Optional.of(basis), false);
    }

    public ProposedAction withApproved(boolean v) {
        return new ProposedAction(kind, decidedAtRevision, targetWindowId, element, keys, textHasNewline, basis, v);
    }

    public ProposedAction withTextHasNewline(boolean v) {
        return new ProposedAction(kind, decidedAtRevision, targetWindowId, element, keys, v, basis, approved);
    }

    /** Whether this action delivers input. */
    public boolean input() {
        return kind.input();
    }
}
