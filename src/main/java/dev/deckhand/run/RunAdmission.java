package dev.deckhand.run;

import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.RunRequest;
import dev.deckhand.loop.verify.VerifierSpec;
import dev.deckhand.policy.FileVerifierScope;
import dev.deckhand.policy.PolicyStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The admission of one {@code computer} call: the first refusal, in the order docs/contract.md states
 * (Admission), before any grant is touched — no bind, no hold, no audit record of a bind, no presence:
 * <ol>
 *   <li>the mode: {@code plan}, {@code goal} → {@code MODE_DENIED} (before anything else is read);
 *   <li>the verifier: a run that may give input without one → {@code NO_VERIFIER};
 *   <li>(the policy file is read here: {@code CONFIG_MISSING})
 *   <li>the verifier's arguments: a {@code command} verifier whose argv the policy does not enable →
 *       {@code OUT_OF_SCOPE};
 *   <li>the file scope: a {@code file} verifier outside the policy's verifier roots → {@code OUT_OF_SCOPE};
 *   <li>the rate limits: the budget of verifier reads ({@link VerifierReads}) → {@code OUT_OF_SCOPE}, last,
 *       because it takes a slot.
 * </ol>
 * The first two are the request's own ({@link RunRequest#refusal()}, decided in {@code grant.Policy} and
 * {@code loop.route.Router}); this is the one place the server asks for them.
 */
@ApplicationScoped
public class RunAdmission {

    /** What admission decided: refused with the first refusal, or admitted with the policy read for the run. */
    public sealed interface Decision permits Refused, Admitted {}

    public record Refused(Refusal refusal) implements Decision {
        public Refused {
            Objects.requireNonNull(refusal, "refusal");
        }
    }

    /**
     * @param slot the verifier-reads slot taken for the run, empty when its verifier reads nothing; settle it
     *     once the run ends ({@link #settle})
     */
    public record Admitted(RunRequest request, PolicyConfig config, Optional<VerifierReads.Slot> slot)
            implements Decision {
        public Admitted {
            Objects.requireNonNull(request, "request");
            Objects.requireNonNull(config, "config");
            Objects.requireNonNull(slot, "slot");
        }

        /** Gives the slot back unless the verifier ran (a run refused before it started read nothing). */
        public void settle(boolean verifierRan) {
            slot.ifPresent(s -> s.settle(verifierRan));
        }
    }

    private final Supplier<PolicyConfig> policy;
    private final FileVerifierScope files;
    private final VerifierReads reads;

    @Inject
    public RunAdmission(PolicyStore policy, FileVerifierScope files, VerifierReads reads) {
        this(policy::current, files, reads);
    }

    RunAdmission(Supplier<PolicyConfig> policy, FileVerifierScope files, VerifierReads reads) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.files = Objects.requireNonNull(files, "files");
        this.reads = Objects.requireNonNull(reads, "reads");
    }

    /** @param sessionId the session the verifier reads are counted for */
    public Decision admit(RunRequest request, String sessionId) {
        Optional<Refusal> own = request.refusal();
        if (own.isPresent()) return new Refused(own.get());
        try {
            PolicyConfig config = policy.get();
            Optional<Refusal> scope = verifierScope(request.verifier(), config);
            if (scope.isPresent()) return new Refused(scope.get());
            Optional<VerifierReads.Slot> slot =
                    VerifierReads.reads(request.verifier()) ? Optional.of(reads.take(sessionId)) : Optional.empty();
            return new Admitted(request, config, slot);
        } catch (RefusedException e) {
            return new Refused(e.refusal());
        }
    }

    /** The verifier's arguments, then its file scope. */
    private Optional<Refusal> verifierScope(Optional<VerifierSpec> verifier, PolicyConfig config) {
        if (verifier.orElse(null) instanceof VerifierSpec.Command c && !config.commandEnabled(c.argv())) {
            return Optional.of(Refusal.outOfScope(
                    "the command verifier " + c.argv().get(0) + " is not enabled in the policy (enabledCommands)"));
        }
        if (verifier.orElse(null) instanceof VerifierSpec.File f) return files.check(f.path(), config);
        return Optional.empty();
    }
}
