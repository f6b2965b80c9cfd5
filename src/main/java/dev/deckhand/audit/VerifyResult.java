package dev.deckhand.audit;

/**
 * The outcome of verifying the chain.
 *
 * @param records how many records were walked
 * @param firstSeq the first seq present (after the latest checkpoint), 0 when empty
 * @param headSeq the last seq reached in order, 0 when empty
 * @param sealedSeq the highest seq covered by a valid seal or checkpoint
 * @param anchorChecked whether the head anchor beside the key file was found and checked
 * @param firstBreak the first broken link, or null when the chain verifies
 */
public record VerifyResult(
        long records, long firstSeq, long headSeq, long sealedSeq, boolean anchorChecked, Break firstBreak) {

    /** What kind of tampering a broken link points to. */
    public enum Kind {
        /** A record's fields no longer match its hash (or the chain was rewritten under a seal). */
        EDITED,
        /** A seq is missing: a record was deleted. */
        DELETED,
        /** A record sits in the wrong place: its own link points at another record in the log. */
        REORDERED,
        /** The head is behind the last seal (or the anchor): the tail was cut off. */
        TRUNCATED,
        /** A seal, checkpoint or anchor does not verify under this key: re-sealed with another key. */
        RESEALED
    }

    /** The first broken link: its kind, the seq where it shows, and a human-readable detail. */
    public record Break(Kind kind, long seq, String detail) {
        public Break {
            Fields.required("kind", kind);
            Fields.required("detail", detail);
        }
    }

    public boolean ok() {
        return firstBreak == null;
    }

    /** One line for people: {@code audit ok: ...} or {@code audit BROKEN at seq N (KIND): ...}. */
    public String describe() {
        if (ok()) {
            return "audit ok: " + records + " records, seq " + firstSeq + ".." + headSeq + ", sealed through "
                    + sealedSeq + (anchorChecked ? ", head anchor checked" : ", no head anchor");
        }
        return "audit BROKEN at seq " + firstBreak.seq() + " (" + firstBreak.kind() + "): " + firstBreak.detail();
    }
}
