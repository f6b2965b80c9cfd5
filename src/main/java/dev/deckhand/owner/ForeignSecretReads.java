package dev.deckhand.owner;

import dev.deckhand.audit.AuditLog;
import dev.deckhand.home.DeckhandHome;
import dev.deckhand.home.KnownSecrets;
import dev.deckhand.home.SecretFileReads;
import dev.deckhand.home.Secrets;
import dev.deckhand.model.ModelBindingStore;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Set;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * What happens when a process other than Deckhand opens one of its secret files while a grant whose app runs
 * commands is watched (from a run's first input to it until the grant ends: {@code run.CommandGrants}, and the
 * run's own {@code SecretFileWindow}): the grant is revoked (a granted app that runs what it is given may have done
 * it, and every later read of that app could show what it read) and, when the owner token's file was opened, the
 * owner token is replaced, so a copy of it opens nothing. A run that was going ends {@code SECRET_ON_SCREEN} on its
 * own watch. After such a grant, while a process started under it still runs, an open of the owner token's file
 * replaces it too. Outside those times an open is the person's own ({@code deckhand signin}, a script approving a card)
 * and changes nothing.
 */
@ApplicationScoped
@Startup
public class ForeignSecretReads {

    private static final Logger LOG = Logger.getLogger(ForeignSecretReads.class);

    @Inject
    public ForeignSecretReads(
            GrantService grants, Secrets secrets, ModelBindingStore model, KnownSecrets known, AuditLog audit) {
        SecretFileReads.onForeignRead(names -> respond(grants, secrets, model, known, audit, names));
    }

    private static void respond(
            GrantService grants,
            Secrets secrets,
            ModelBindingStore model,
            KnownSecrets known,
            AuditLog audit,
            Set<String> names) {
        var active = grants.broker().active();
        if (!SecretFileReads.acting()) return;
        String called = names.stream().map(SecretFileReads::called).collect(Collectors.joining(", "));
        boolean ownerToken = names.contains(DeckhandHome.OWNER_TOKEN) || names.contains(SecretFileReads.UNKNOWN);
        if (ownerToken) secrets.rotateOwnerToken();
        // round 9's P4: a copy of the seal key could seal a rewritten log; a new key's epoch starts after the head, and
        // the seal below (after the grant's revocation is recorded) closes the old one
        boolean sealKey = names.contains(DeckhandHome.AUDIT_SEAL_KEY) || names.contains(SecretFileReads.UNKNOWN);
        if (sealKey) audit.store().rotateSealKey();
        if (names.contains(DeckhandHome.MODEL_API_KEY) || names.contains(SecretFileReads.UNKNOWN)) forget(model, known);
        if (active.isEmpty()) {
            // no grant, yet watched: a process started under an ended command grant still runs (run.CommandGrants)
            LOG.warnf(
                    "a process other than Deckhand opened Deckhand's %s while a program started under an ended command "
                            + "grant still runs%s",
                    called,
                    (ownerToken ? ": the owner token is replaced" : "")
                            + (sealKey ? "; the audit seal key is replaced for later records" : ""));
            return;
        }
        LOG.warnf(
                "a process other than Deckhand opened Deckhand's %s while grant %s was active: the grant is revoked%s",
                called,
                active.get().id(),
                (ownerToken ? " and the owner token replaced" : "")
                        + (sealKey ? "; the audit seal key is replaced for later records" : ""));
        grants.broker().revoke(active.get().id());
        if (sealKey) audit.store().seal();
    }

    /**
     * Round 5 of the review (A3): a copy of the model's API key outlives the grant that read it (no rotation of
     * Deckhand's can end a provider's key) and left later through a window title. Deckhand forgets the key, so no
     * run uses it until the person binds a new one, and keeps screening for it (a copy shown as written still ends a
     * run {@code SECRET_ON_SCREEN}); the person revokes it at the provider.
     */
    private static void forget(ModelBindingStore model, KnownSecrets known) {
        java.util.Optional<dev.deckhand.model.ApiKey> key;
        try {
            key = model.apiKey();
        } catch (RuntimeException unreadable) {
            key = java.util.Optional.empty();
        }
        if (key.isEmpty()) return;
        known.hold(key.get().reveal(), "former model API key");
        model.clearApiKey();
        LOG.warn("a process other than Deckhand read the model API key: Deckhand forgot it and runs refuse until a new "
                + "key is bound in the page; revoke the old key at the provider");
    }
}
