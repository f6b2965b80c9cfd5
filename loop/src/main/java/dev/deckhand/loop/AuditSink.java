package dev.deckhand.loop;

/**
 * Receives an intent before and a result after each action (docs/design.md#audit). Records carry typed text
 * only as its length and never pixels. An action refused before delivery still gets both records.
 */
public interface AuditSink {

    void intent(ActionIntent intent);

    void result(ActionResult result);
}
