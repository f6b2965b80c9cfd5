package dev.deckhand.loop;

import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.action.ElementAction;
import dev.deckhand.loop.desktop.Node;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What is about to be done. No typed text (only {@code textLength}), no key chords (a sequence of
 * single-key chords would spell out text), no pixels.
 *
 * @param step 1-based index of the action in the run
 * @param uid the element's uid for element actions
 * @param role the element's role, when the uid is in the tree
 * @param textLength length of the text of {@code type} and {@code set_text}
 */
public record ActionIntent(
        String runId,
        int step,
        String kind,
        Optional<String> uid,
        Optional<String> role,
        OptionalInt textLength,
        long grantRevision) {

    public ActionIntent {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(uid, "uid");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(textLength, "textLength");
    }

    static ActionIntent of(String runId, int step, Action a, Optional<Node> node, long revision) {
        Optional<String> uid = a instanceof ElementAction ? Optional.of(((ElementAction) a).uid()) : Optional.empty();
        OptionalInt len = OptionalInt.empty();
        if (a instanceof Action.Type)
            len = OptionalInt.of(((Action.Type) a).text().length());
        if (a instanceof Action.SetText)
            len = OptionalInt.of(((Action.SetText) a).text().length());
        return new ActionIntent(runId, step, a.kind(), uid, node.map(Node::role), len, revision);
    }
}
