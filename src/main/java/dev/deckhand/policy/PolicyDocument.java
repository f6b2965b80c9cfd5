package dev.deckhand.policy;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.deckhand.grant.PermissionMode;
import dev.deckhand.grant.PolicyConfig;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The policy file ({@code policy.json} in the config directory) and the body of
 * {@code GET|PUT /api/policy}: the whole document, strict (unknown fields are refused).
 * {@code verifierRoots} is optional (files written before it existed load with the default roots) and
 * is left out of the document while it is the default; {@code allowLocalFiles} is optional (absent: true).
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record PolicyDocument(
        String permissionMode,
        Set<String> credentialApps,
        Set<String> commsApps,
        Set<String> deniedHosts,
        Set<String> allowedHosts,
        CapsDocument caps,
        Long pollIntervalMs,
        List<List<String>> enabledCommands,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<String> verifierRoots,
        java.util.Map<String, Set<String>> consequentialWords,
        @JsonInclude(JsonInclude.Include.NON_NULL) Boolean allowLocalFiles) {

    /** Caps in plain units. */
    @JsonIgnoreProperties(ignoreUnknown = false)
    public record CapsDocument(Integer maxSteps, Long wallClockSeconds, Integer budget, Long idleExpirySeconds) {}

    public static PolicyDocument of(PolicyConfig c) {
        return new PolicyDocument(
                c.permissionMode().wire(),
                c.credentialApps(),
                c.commsApps(),
                c.deniedHosts(),
                c.allowedHosts(),
                new CapsDocument(
                        c.caps().maxSteps(),
                        c.caps().wallClock().toSeconds(),
                        c.caps().budget(),
                        c.caps().idleExpiry().toSeconds()),
                c.pollInterval().toMillis(),
                c.enabledCommands(),
                c.verifierRoots(),
                c.consequentialWords().categories(),
                c.allowLocalFiles());
    }

    /**
     * The validated config. Every field is required in the file (an empty deny list is never assumed)
     * except {@code verifierRoots} (absent: the default roots), {@code consequentialWords} (optional: it
     * adds to the built-in word list) and {@code allowLocalFiles} (absent: true); built-in credential entries are re-added by {@link PolicyConfig}.
     *
     * @throws IllegalArgumentException naming the field
     */
    public PolicyConfig toConfig() {
        require(permissionMode, "permissionMode");
        require(credentialApps, "credentialApps");
        require(commsApps, "commsApps");
        require(deniedHosts, "deniedHosts");
        require(allowedHosts, "allowedHosts");
        require(caps, "caps");
        require(caps.maxSteps(), "caps.maxSteps");
        require(caps.wallClockSeconds(), "caps.wallClockSeconds");
        require(caps.budget(), "caps.budget");
        require(caps.idleExpirySeconds(), "caps.idleExpirySeconds");
        require(pollIntervalMs, "pollIntervalMs");
        require(enabledCommands, "enabledCommands");
        return new PolicyConfig(
                PermissionMode.fromWire(permissionMode),
                credentialApps,
                commsApps,
                deniedHosts,
                allowedHosts,
                new PolicyConfig.Caps(
                        caps.maxSteps(),
                        Duration.ofSeconds(caps.wallClockSeconds()),
                        caps.budget(),
                        Duration.ofSeconds(caps.idleExpirySeconds())),
                Duration.ofMillis(pollIntervalMs),
                enabledCommands,
                verifierRoots,
                consequentialWords == null ? null : new dev.deckhand.grant.ConsequentialWords(consequentialWords),
                allowLocalFiles);
    }

    /** This document under another permission mode (its wire name). */
    public PolicyDocument withPermissionMode(String mode) {
        return new PolicyDocument(
                mode,
                credentialApps,
                commsApps,
                deniedHosts,
                allowedHosts,
                caps,
                pollIntervalMs,
                enabledCommands,
                verifierRoots,
                consequentialWords,
                allowLocalFiles);
    }

    private static void require(Object value, String field) {
        if (value == null) throw new IllegalArgumentException(field + " is required");
    }
}
