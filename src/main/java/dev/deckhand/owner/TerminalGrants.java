package dev.deckhand.owner;

import dev.deckhand.audit.GrantEvent;
import dev.deckhand.grant.Grant;
import dev.deckhand.grant.InputPolicy;
import dev.deckhand.grant.MintRequest;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.grant.ScopeKind;
import dev.deckhand.home.DeckhandHome;
import dev.deckhand.home.Secrets;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.loop.guard.FactsMapper;
import dev.deckhand.platform.Desktops;
import dev.deckhand.policy.PolicyStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The person minting a grant at their own terminal ({@code deckhand run}): the owner path of
 * {@code POST /api/grants}, in process. It asks for the owner token as {@code POST /api/grants}
 * does — the CLI reads it from the config directory's {@code owner-token} file (mode 0600), which
 * only the person's account can read — and it never hands out the {@code OwnerPass}.
 *
 * <p>The grant is as narrow as the web page's default: the caps' budget and idle expiry,
 * {@code a11y_only}, no consequential action named; {@code autonomous} only when the policy's
 * permission mode allows it ({@code accept-edits}, {@code auto}), otherwise {@code confirm_each}, whose
 * approval cards the person answers in the web page. It is bound to the CLI's session at once, so no
 * MCP session of this process can take it over.
 */
@ApplicationScoped
public class TerminalGrants {

    @Inject
    GrantService grants;

    @Inject
    PolicyStore policy;

    @Inject
    Desktops desktops;

    @Inject
    Secrets secrets;

    @Inject
    DeckhandHome home;

    /** What the person selected on the command line: exactly one of a window id and an app class. */
    public record Selection(OptionalLong windowId, Optional<String> app) {
        public Selection {
            if (windowId.isPresent() == app.isPresent()) {
                throw new IllegalArgumentException("selection needs exactly one of windowId and app");
            }
        }

        @Override
        public String toString() {
            return app.map(a -> "app '" + a + "'")
                    .orElseGet(() -> "window 0x" + Long.toHexString(windowId.getAsLong()));
        }
    }

    /** The owner token as the person's account reads it from the config directory. */
    public String readOwnerToken() {
        try {
            return dev.deckhand.home.SecretFileReads.read(home.file(DeckhandHome.OWNER_TOKEN));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the owner token in " + home.dir(), e);
        }
    }

    /**
     * Mints the grant for {@code selection} and binds it to {@code sessionId}.
     *
     * @throws SecurityException the token is not the owner token
     * @throws RefusedException {@code CONFIG_MISSING} (the policy file), {@code HEADLESS} and the other
     *     display refusals, {@code PREFLIGHT_FAILED} when no such window is on screen, the refusal the
     *     window would get in the target picker ({@code OWN_WINDOW}, {@code DENY_*}), {@code MODE_DENIED}
     * @throws dev.deckhand.grant.GrantConflictException another grant of this server is active
     */
    public Grant mint(String ownerToken, Selection selection, String sessionId) {
        if (!secrets.isOwnerToken(ownerToken)) throw new SecurityException("minting needs the owner token");
        PolicyConfig config = policy.current();
        DesktopFacts facts = desktops.desktop().facts().current();
        WindowInfo window = pick(facts, selection);
        InputPolicy input = config.permissionMode().allows(InputPolicy.AUTONOMOUS)
                ? InputPolicy.AUTONOMOUS
                : InputPolicy.CONFIRM_EACH;
        ScopeKind scope = selection.app().isPresent() ? ScopeKind.APP : ScopeKind.WINDOW;
        grants.mintFor(window, facts, config, target -> MintRequest.of(target, scope, config.caps())
                .withInputPolicy(input));
        Grant bound = grants.broker().acquire(sessionId, null);
        grants.record(GrantEvent.Kind.BIND, bound);
        return bound;
    }

    /**
     * Mints the grant {@code fields} ask for (the fields of {@code POST /api/grants}, as the person gives
     * them in the page) on window {@code windowId}, and binds it to {@code sessionId}; {@code deckhand eval}
     * acts as the person this way.
     *
     * @throws SecurityException the token is not the owner token
     * @throws RefusedException as {@link #mint(String, Selection, String)}, and {@code MODE_DENIED} for an
     *     input policy the permission mode does not allow
     */
    public Grant mint(String ownerToken, long windowId, OwnerResource.MintBody fields, String sessionId) {
        if (!secrets.isOwnerToken(ownerToken)) throw new SecurityException("minting needs the owner token");
        PolicyConfig config = policy.current();
        DesktopFacts facts = desktops.desktop().facts().current();
        WindowInfo window = pick(facts, new Selection(OptionalLong.of(windowId), Optional.empty()));
        grants.mintFor(window, facts, config, target -> fields.request(target, config));
        Grant bound = grants.broker().acquire(sessionId, null);
        grants.record(GrantEvent.Kind.BIND, bound);
        return bound;
    }

    /** Revokes the grant if it is still active; whether it was. */
    public boolean revoke(String grantId) {
        return grants.broker().revoke(grantId);
    }

    /** The selected window: by id, or the top-most visible window of the app that is not Deckhand's own. */
    static WindowInfo pick(DesktopFacts facts, Selection selection) {
        if (selection.windowId().isPresent()) {
            long id = selection.windowId().getAsLong();
            return FactsMapper.window(facts, id)
                    .orElseThrow(() -> new RefusedException(Refusal.preflightFailed(
                            "window exists: no window 0x" + Long.toHexString(id) + " on this display")));
        }
        String app = selection.app().get().toLowerCase(Locale.ROOT);
        return facts.windows().stream()
                .filter(w -> w.app().toLowerCase(Locale.ROOT).equals(app) && w.visible() && !w.own())
                .max(Comparator.comparingInt(WindowInfo::stacking))
                .orElseThrow(
                        () -> new RefusedException(Refusal.preflightFailed("window exists: no visible window of app '"
                                + selection.app().get() + "' on this display")));
    }
}
