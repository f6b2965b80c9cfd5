package dev.deckhand.grant;

import java.util.Objects;
import java.util.Optional;

/** What {@link Policy#check} decided for one proposed action. */
public sealed interface PolicyDecision
        permits PolicyDecision.Allow, PolicyDecision.NeedsApproval, PolicyDecision.Refuse {

    /** The refusal, when this is {@link Refuse}. */
    default Optional<Refusal> refusal() {
        return Optional.empty();
    }

    default boolean allowed() {
        return false;
    }

    /** Deliver the action (then spend budget with {@link GrantBroker#consume}). */
    record Allow() implements PolicyDecision {
        @Override
        public boolean allowed() {
            return true;
        }
    }

    /**
     * Raise an approval card ({@link ApprovalBook#request}) for this action's batch, then re-check with
     * {@link ProposedAction#withApproved(boolean) approved = true} once the approval is consumed.
     *
     * @param reason why, for the card (e.g. "confirm_each" or the consequential action)
     * @param consequential the consequential action the card must show, when the gate fired; pass it to
     *     {@link ApprovalBook#request} so a denial reports {@code CONSEQUENTIAL_NOT_NAMED}
     */
    record NeedsApproval(String reason, Optional<String> consequential) implements PolicyDecision {
        public NeedsApproval {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(consequential, "consequential");
        }
    }

    /** Refused; report it, never work around it. */
    record Refuse(Refusal value) implements PolicyDecision {
        public Refuse {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public Optional<Refusal> refusal() {
            return Optional.of(value);
        }
    }
}
