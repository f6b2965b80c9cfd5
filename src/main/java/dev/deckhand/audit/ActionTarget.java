package dev.deckhand.audit;

/**
 * Where an action goes: the grant (id and revision), the target window and application, and the
 * element (role and uid; both null for actions without an element, such as {@code key}).
 */
public record ActionTarget(
        String grantId, long grantRevision, String windowId, String app, String elementRole, String elementUid) {
    public ActionTarget {
        Fields.id("grantId", grantId);
        Fields.nonNegative("grantRevision", grantRevision);
        Fields.optId("windowId", windowId);
        Fields.optId("app", app);
        Fields.optId("elementRole", elementRole);
        Fields.optId("elementUid", elementUid);
    }
}
