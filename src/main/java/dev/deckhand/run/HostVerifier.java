package dev.deckhand.run;

import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.verify.Verifier;
import dev.deckhand.loop.verify.VerifierResult;
import dev.deckhand.loop.verify.VerifierSpec;
import dev.deckhand.policy.FileVerifierScope;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The {@code file} and {@code command} verifiers (the loop's {@code DesktopVerifier} does {@code a11y}
 * and {@code window}). A file is read only where {@link FileVerifierScope} admits it — checked before the
 * run starts and again here, on the real path, which is then opened without following links; no detail
 * ever carries the file's content or hash (a mismatch says only that it differs). A command runs only when
 * the person enabled that exact argv in the policy; it gets no shell, no standard input, and its output is
 * discarded (it could echo typed text). The exit code decides. {@code VerifierRunner} caps the time and
 * interrupts; the process is then killed.
 */
public final class HostVerifier implements Verifier {

    static final long MAX_CONTAINS_BYTES = 64L * 1024 * 1024;

    private final PolicyConfig policy;
    private final FileVerifierScope files;
    private final java.util.function.Supplier<dev.deckhand.grant.OwnSecrets> secrets;

    public HostVerifier(PolicyConfig policy, FileVerifierScope files) {
        this(policy, files, dev.deckhand.grant.OwnSecrets::none);
    }

    /**
     * @param secrets Deckhand's own secrets now: a file that holds one is not compared (round 12's O1: a person's note
     *     with the owner token answered {@code contains} guesses one character at a time)
     */
    public HostVerifier(
            PolicyConfig policy,
            FileVerifierScope files,
            java.util.function.Supplier<dev.deckhand.grant.OwnSecrets> secrets) {
        this.policy = policy;
        this.files = files;
        this.secrets = secrets;
    }

    /** The refusal to compare a file that holds one of Deckhand's secrets, whichever it is and wherever. */
    private static VerifierResult holdsSecret(String path) {
        return VerifierResult.fail("not read: " + path
                + " holds one of Deckhand's own secrets, and no verifier compares it (counts as fail)");
    }

    /** The file's text (at most {@link #MAX_CONTAINS_BYTES}), read without following links. */
    private static String text(Path real) throws IOException {
        try (InputStream in = Files.newInputStream(real, LinkOption.NOFOLLOW_LINKS)) {
            return new String(in.readNBytes((int) MAX_CONTAINS_BYTES), StandardCharsets.UTF_8);
        }
    }

    @Override
    public VerifierResult verify(VerifierSpec spec) throws Exception {
        if (spec instanceof VerifierSpec.File f) return file(f);
        if (spec instanceof VerifierSpec.Command c) return command(c);
        return VerifierResult.fail(spec.kind() + " verifier is not checked on the host");
    }

    private VerifierResult file(VerifierSpec.File f) throws IOException, NoSuchAlgorithmException {
        Optional<Path> real;
        try {
            real = files.openable(f.path(), policy);
        } catch (RefusedException e) {
            return VerifierResult.fail("not read: " + e.refusal().detail());
        }
        boolean exists = real.isPresent() && Files.isRegularFile(real.get(), LinkOption.NOFOLLOW_LINKS);
        switch (f.check()) {
            case EXISTS:
                return exists
                        ? VerifierResult.pass(f.path() + " exists")
                        : VerifierResult.fail(f.path() + " does not exist");
            case ABSENT:
                return exists
                        ? VerifierResult.fail(f.path() + " exists")
                        : VerifierResult.pass(f.path() + " does not exist");
            case CONTAINS: {
                if (!exists) return VerifierResult.fail(f.path() + " does not exist");
                if (Files.size(real.get()) > MAX_CONTAINS_BYTES)
                    return VerifierResult.fail(f.path() + " is larger than 64 MiB");
                String text = text(real.get());
                if (secrets.get().foundIn(text)) return holdsSecret(f.path());
                return text.contains(f.operand())
                        ? VerifierResult.pass(f.path() + " contains the expected text")
                        : VerifierResult.fail(f.path() + " does not contain the expected text");
            }
            case SHA256: {
                if (!exists) return VerifierResult.fail(f.path() + " does not exist");
                MessageDigest sha = MessageDigest.getInstance("SHA-256");
                try (InputStream in = Files.newInputStream(real.get(), LinkOption.NOFOLLOW_LINKS)) {
                    // one read: up to 64 MiB screened for a secret and hashed from the same bytes, the rest streamed
                    byte[] head = in.readNBytes((int) MAX_CONTAINS_BYTES);
                    if (Files.size(real.get()) <= MAX_CONTAINS_BYTES
                            && secrets.get().foundIn(new String(head, StandardCharsets.UTF_8))) {
                        return holdsSecret(f.path());
                    }
                    sha.update(head);
                    byte[] buf = new byte[65536];
                    for (int n; (n = in.read(buf)) > 0; ) sha.update(buf, 0, n);
                }
                boolean same =
                        MessageDigest.isEqual(sha.digest(), HexFormat.of().parseHex(f.operand()));
                return same
                        ? VerifierResult.pass(f.path() + " has the expected sha256")
                        : VerifierResult.fail(f.path() + " differs from the expected sha256");
            }
            default:
                throw new AssertionError(f.check());
        }
    }

    private VerifierResult command(VerifierSpec.Command c) throws IOException {
        if (!policy.commandEnabled(c.argv())) {
            return VerifierResult.fail("command " + c.argv().get(0) + " is not enabled in the policy");
        }
        Process p = new ProcessBuilder(c.argv())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            int code = p.waitFor();
            return code == 0
                    ? VerifierResult.pass("command " + c.argv().get(0) + " exited 0")
                    : VerifierResult.fail("command " + c.argv().get(0) + " exited " + code);
        } catch (InterruptedException e) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            return VerifierResult.fail("command " + c.argv().get(0) + " was stopped");
        }
    }
}
