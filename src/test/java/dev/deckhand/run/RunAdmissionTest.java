package dev.deckhand.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.MutableClock;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.RunRequest;
import dev.deckhand.loop.verify.VerifierSpec;
import dev.deckhand.policy.FileVerifierScope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admission of a call, in the contract's order — mode, verifier, the verifier's arguments, its file
 * scope, the budget of verifier reads — on a fake clock and a policy supplier that counts its reads.
 */
@Tag("pure")
class RunAdmissionTest {

    @TempDir
    Path home;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
    private final AtomicInteger policyReads = new AtomicInteger();

    private RunAdmission admission(Supplier<PolicyConfig> policy, int perSession) throws Exception {
        Path config = Files.createDirectories(home.resolve(".config/deckhand"));
        return new RunAdmission(
                () -> {
                    policyReads.incrementAndGet();
                    return policy.get();
                },
                new FileVerifierScope(home, config),
                new VerifierReads(clock, perSession, 30));
    }

    private static RunRequest request(String instruction, String verifier) {
        return RunRequest.of("run-1", instruction, Optional.ofNullable(verifier).map(VerifierSpec::parse));
    }

    private static RefusalCode refused(RunAdmission.Decision d) {
        return assertInstanceOf(RunAdmission.Refused.class, d).refusal().code();
    }

    @Test
    void theModeIsRefusedFirstAndBeforeThePolicyIsRead() throws Exception {
        RunAdmission a = admission(PolicyConfig::defaults, 10);
        assertEquals(
                RefusalCode.MODE_DENIED,
                refused(a.admit(request("click OK", null).withMode("plan"), "s1")));
        assertEquals(0, policyReads.get(), "nothing else was read");
    }

    @Test
    void aRunThatMayGiveInputWithoutAVerifierIsRefusedBeforeThePolicyIsRead() throws Exception {
        RunAdmission a = admission(
                () -> {
                    throw new RefusedException(Refusal.configMissing("the policy file is missing"));
                },
                10);
        assertEquals(RefusalCode.NO_VERIFIER, refused(a.admit(request("click OK", null), "s1")));
        assertEquals(0, policyReads.get());
        // with a verifier the policy is read next, and its fault is the refusal
        assertEquals(
                RefusalCode.CONFIG_MISSING,
                refused(a.admit(request("click OK", "{\"kind\":\"window\",\"titleMatches\":\"x\"}"), "s1")));
        assertEquals(1, policyReads.get());
    }

    @Test
    void theVerifiersArgumentsAndFileScopeAreRefusedBeforeAnyVerifierReadIsCounted() throws Exception {
        RunAdmission a = admission(PolicyConfig::defaults, 1);
        RunAdmission.Decision command =
                a.admit(request("click OK", "{\"kind\":\"command\",\"argv\":[\"/bin/true\"]}"), "s1");
        assertEquals(RefusalCode.OUT_OF_SCOPE, refused(command));
        assertTrue(((RunAdmission.Refused) command).refusal().detail().contains("enabledCommands"));
        assertEquals(
                RefusalCode.OUT_OF_SCOPE,
                refused(a.admit(
                        request("click OK", "{\"kind\":\"file\",\"path\":\"/etc/hostname\",\"exists\":true}"), "s1")));
        // neither took the session's one read: the next reading run is admitted, and holds a slot
        RunAdmission.Admitted admitted = assertInstanceOf(
                RunAdmission.Admitted.class,
                a.admit(request("click OK", "{\"kind\":\"window\",\"titleMatches\":\"x\"}"), "s1"));
        assertTrue(admitted.slot().isPresent());
        admitted.settle(true);
        // the rate limit comes last: a reading run over the limit is refused
        RunAdmission.Decision over = a.admit(request("click OK", "{\"kind\":\"window\",\"titleMatches\":\"x\"}"), "s1");
        assertEquals(RefusalCode.OUT_OF_SCOPE, refused(over));
        assertTrue(
                ((RunAdmission.Refused) over).refusal().detail().startsWith("verifier reads: 1 per minute"),
                ((RunAdmission.Refused) over).refusal().detail());
    }

    @Test
    void anAdmittedRunRefusedBeforeItStartsGivesItsReadBack() throws Exception {
        RunAdmission a = admission(PolicyConfig::defaults, 1);
        RunAdmission.Admitted first = assertInstanceOf(
                RunAdmission.Admitted.class,
                a.admit(request("click OK", "{\"kind\":\"window\",\"titleMatches\":\"x\"}"), "s1"));
        first.settle(false); // e.g. its mint was refused: the verifier never ran
        assertInstanceOf(
                RunAdmission.Admitted.class,
                a.admit(request("click OK", "{\"kind\":\"window\",\"titleMatches\":\"x\"}"), "s1"));
    }

    @Test
    void aReadOnlyRunNeedsNoVerifierAndTakesNoRead() throws Exception {
        RunAdmission a = admission(PolicyConfig::defaults, 1);
        RunAdmission.Admitted admitted = assertInstanceOf(
                RunAdmission.Admitted.class, a.admit(request("What does the dialog say?", null), "s1"));
        assertEquals(Optional.empty(), admitted.slot());
        assertEquals(PolicyConfig.defaults().caps(), admitted.config().caps(), "the policy as admission read it");
    }
}
