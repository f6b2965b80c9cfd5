package dev.deckhand.loop.fakes;

import dev.deckhand.loop.verify.Verifier;
import dev.deckhand.loop.verify.VerifierResult;
import dev.deckhand.loop.verify.VerifierSpec;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts runs and answers pass or fail as set. */
public final class CountingVerifier implements Verifier {

    public final AtomicInteger runs = new AtomicInteger();
    public volatile boolean pass = true;

    @Override
    public VerifierResult verify(VerifierSpec spec) {
        runs.incrementAndGet();
        return pass
                ? VerifierResult.pass("checked " + spec.kind())
                : VerifierResult.fail("not as expected (" + spec.kind() + ")");
    }
}
