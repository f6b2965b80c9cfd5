package dev.deckhand.grant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

@Tag("pure")
class PolicyConfigTest {

    static void invalid(String field, Executable e) {
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, e);
        assertTrue(ex.getMessage().contains(field), "message '" + ex.getMessage() + "' should name " + field);
    }

    @Test
    void defaultsAreFilled() {
        PolicyConfig d = PolicyConfig.defaults();
        assertEquals(PermissionMode.ASK, d.permissionMode());
        assertTrue(d.credentialApps()
                .containsAll(Set.of(
                        "keepassxc",
                        "keepass2",
                        "1password",
                        "bitwarden",
                        "seahorse",
                        "gnome-keyring",
                        "kwalletmanager5",
                        "lastpass",
                        "pass",
                        "gopass",
                        "enpass",
                        "dashlane")));
        assertEquals(PolicyConfig.DEFAULT_COMMS_APPS, d.commsApps());
        assertEquals(PolicyConfig.DEFAULT_DENIED_HOSTS, d.deniedHosts());
        assertEquals(Set.of(), d.allowedHosts());
        assertEquals(60, d.caps().maxSteps());
        assertEquals(Duration.ofMinutes(10), d.caps().wallClock());
        assertEquals(PolicyConfig.Caps.DEFAULT_BUDGET, d.caps().budget());
        assertEquals(PolicyConfig.Caps.DEFAULT_IDLE_EXPIRY, d.caps().idleExpiry());
        assertEquals(Duration.ofSeconds(1), d.pollInterval());
        assertEquals(List.of(), d.enabledCommands());
        assertEquals(d, new PolicyConfig(null, null, null, null, null, null, null, null));
    }

    @Test
    void builtInCredentialAppsCannotBeRemoved() {
        PolicyConfig c = PolicyConfig.defaults().withCredentialApps(Set.of("MySecrets"));
        assertTrue(c.credentialApps().containsAll(PolicyConfig.BUILTIN_CREDENTIAL_APPS));
        assertTrue(c.credentialApps().contains("mysecrets"));
        PolicyConfig emptied = PolicyConfig.defaults().withCredentialApps(Set.of());
        assertEquals(PolicyConfig.BUILTIN_CREDENTIAL_APPS, emptied.credentialApps());
        assertEquals(
                Set.of("bitwarden"),
                PolicyConfig.missingBuiltins(minus(PolicyConfig.BUILTIN_CREDENTIAL_APPS, "bitwarden")));
        assertEquals(
                Set.of(), PolicyConfig.missingBuiltins(PolicyConfig.defaults().credentialApps()));
        assertThrows(
                UnsupportedOperationException.class, () -> c.credentialApps().remove("keepassxc"));
    }

    @Test
    void emptyDenyListsAreNeverAssumed() {
        PolicyConfig c = PolicyConfig.defaults().withCommsApps(Set.of()).withDeniedHosts(Set.of());
        assertFalse(c.commsApps().isEmpty());
        assertFalse(c.deniedHosts().isEmpty());
        assertEquals(PolicyConfig.DEFAULT_COMMS_APPS, c.commsApps());
        assertEquals(PolicyConfig.DEFAULT_DENIED_HOSTS, c.deniedHosts());
        PolicyConfig own =
                PolicyConfig.defaults().withCommsApps(Set.of("Ripcord")).withDeniedHosts(Set.of("Bank.Example"));
        assertEquals(Set.of("ripcord"), own.commsApps());
        assertEquals(Set.of("bank.example"), own.deniedHosts());
        assertTrue(own.hostDenied("www.bank.example"));
        assertFalse(own.hostDenied("notbank.example"));
    }

    @Test
    void verifierRootsAreOptionalAbsoluteAndKeptAsGiven() {
        assertEquals(null, PolicyConfig.defaults().verifierRoots(), "absent: the application's default roots");
        PolicyConfig c = PolicyConfig.defaults().withVerifierRoots(java.util.List.of("/srv/out", "/tmp"));
        assertEquals(java.util.List.of("/srv/out", "/tmp"), c.verifierRoots());
        assertEquals(
                c.verifierRoots(),
                c.withPollInterval(java.time.Duration.ofSeconds(2)).verifierRoots(),
                "kept by every with-method");
        assertEquals(
                java.util.List.of(),
                PolicyConfig.defaults().withVerifierRoots(java.util.List.of()).verifierRoots(),
                "an empty list admits no file: not replaced by the default");
        invalid("verifierRoots", () -> PolicyConfig.defaults().withVerifierRoots(java.util.List.of("relative/dir")));
        invalid("verifierRoots", () -> PolicyConfig.defaults().withVerifierRoots(java.util.Arrays.asList("/a", null)));
    }

    @Test
    void validationNamesTheField() {
        PolicyConfig d = PolicyConfig.defaults();
        invalid("commsApps", () -> d.withCommsApps(Set.of(" ")));
        invalid("credentialApps", () -> d.withCredentialApps(Set.of("")));
        invalid("deniedHosts", () -> d.withDeniedHosts(Set.of("https://bank.example/login")));
        invalid("allowedHosts", () -> d.withAllowedHosts(Set.of("example.org:8080")));
        invalid("pollInterval", () -> d.withPollInterval(Duration.ZERO));
        invalid("pollInterval", () -> d.withPollInterval(Duration.ofMinutes(5)));
        invalid("enabledCommands", () -> d.withEnabledCommands(List.of(List.of())));
        invalid("enabledCommands", () -> d.withEnabledCommands(List.of(List.of(" ", "x"))));
        invalid("caps.maxSteps", () -> PolicyConfig.Caps.defaults().withMaxSteps(0));
        invalid("caps.wallClock", () -> PolicyConfig.Caps.defaults().withWallClock(Duration.ZERO));
        invalid("caps.wallClock", () -> PolicyConfig.Caps.defaults().withWallClock(Duration.ofDays(2)));
        invalid("caps.budget", () -> PolicyConfig.Caps.defaults().withBudget(0));
        invalid("caps.idleExpiry", () -> PolicyConfig.Caps.defaults().withIdleExpiry(Duration.ofMillis(10)));
        invalid("permissionMode", () -> PermissionMode.fromWire("yolo"));
    }

    @Test
    void enabledCommandsMatchExactly() {
        PolicyConfig c = PolicyConfig.defaults().withEnabledCommands(List.of(List.of("test", "-f", "/tmp/x")));
        assertTrue(c.commandEnabled(List.of("test", "-f", "/tmp/x")));
        assertFalse(c.commandEnabled(List.of("test", "-f", "/tmp/y")));
        assertFalse(c.commandEnabled(List.of("test")));
    }

    @Test
    void runLimitsOnlyLowerTheCaps() {
        PolicyConfig.Caps caps = PolicyConfig.Caps.defaults();
        assertEquals(10, caps.lowered(10, null).maxSteps());
        assertEquals(60, caps.lowered(500, null).maxSteps());
        assertEquals(Duration.ofSeconds(30), caps.lowered(null, 30).wallClock());
        assertEquals(Duration.ofMinutes(10), caps.lowered(null, 3600).wallClock());
        invalid("maxSteps", () -> caps.lowered(0, null));
        invalid("timeoutSeconds", () -> caps.lowered(null, 0));
    }

    @Test
    void withCopiesKeepTheRest() {
        PolicyConfig c = PolicyConfig.defaults()
                .withPermissionMode(PermissionMode.AUTO)
                .withAllowedHosts(Set.of("example.org"))
                .withPollInterval(Duration.ofMillis(250));
        assertEquals(PermissionMode.AUTO, c.permissionMode());
        assertEquals(Set.of("example.org"), c.allowedHosts());
        assertEquals(Duration.ofMillis(250), c.pollInterval());
        assertEquals(PolicyConfig.DEFAULT_COMMS_APPS, c.commsApps());
    }

    private static Set<String> minus(Set<String> s, String x) {
        java.util.Set<String> out = new java.util.TreeSet<>(s);
        out.remove(x);
        return out;
    }
}
