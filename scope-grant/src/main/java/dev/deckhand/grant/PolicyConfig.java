package dev.deckhand.grant;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The policy the person owns (the policy file; {@code GET|PUT /api/policy} carries the whole
 * document; the app maps JSON to this record).
 *
 * <p>Normalisation, decided here once:
 * <ul>
 * <li>A null field gets its default (the app may pass nulls for fields missing from the document).
 * <li>{@link #BUILTIN_CREDENTIAL_APPS} cannot be removed: they are <b>re-added</b> to whatever
 *   {@code credentialApps} is given (no error), so a config never lacks them. The app can warn with
 *   {@link #missingBuiltins(Set)} before constructing.
 * <li>An empty deny list is never assumed: an empty (or null) {@code commsApps} or {@code deniedHosts}
 *   is replaced by its default list. An empty {@code allowedHosts} means "no allow-list" (any known,
 *   not denied host); a host both allowed and denied is denied.
 * <li>App names are lower-cased (they are compared to lower-case WM_CLASS / executable names); hosts
 *   are lower-cased bare host names; {@code example.com} also covers its subdomains.
 * </ul>
 * Invalid values throw {@link IllegalArgumentException} whose message names the field.
 *
 * @param enabledCommands argv lists the person enabled for {@code command} verifiers (exact match)
 * @param verifierRoots the absolute directories a {@code file} verifier may read under; null (the field is
 *     optional) means the default the application resolves (the XDG user directories and {@code /tmp});
 *     an empty list admits no file at all. The application adds its built-in denied set on top.
 * @param consequentialWords the consequential word list: the built-in one plus the person's additions
 *     (optional in the file; null means the built-in list)
 * @param allowLocalFiles whether a browser tab showing a local document ({@code file://}) may be granted and driven
 *     (null: true); its path is still checked against the denied places
 */
public record PolicyConfig(
        PermissionMode permissionMode,
        Set<String> credentialApps,
        Set<String> commsApps,
        Set<String> deniedHosts,
        Set<String> allowedHosts,
        Caps caps,
        Duration pollInterval,
        List<List<String>> enabledCommands,
        List<String> verifierRoots,
        ConsequentialWords consequentialWords,
        Boolean allowLocalFiles) {

    /** Credential-class apps that are always on the list (lower-case WM_CLASS / executable names). */
    public static final Set<String> BUILTIN_CREDENTIAL_APPS = Collections.unmodifiableSet(new TreeSet<>(List.of(
            "keepassxc",
            "keepass2",
            "keepass",
            "1password",
            "bitwarden",
            "seahorse",
            "gnome-keyring",
            "kwalletmanager5",
            "kwalletmanager",
            "lastpass",
            "pass",
            "gopass",
            "enpass",
            "dashlane",
            "qtpass",
            "authenticator",
            "secrets")));

    /** Default communications apps (lower-case WM_CLASS names). */
    public static final Set<String> DEFAULT_COMMS_APPS = Collections.unmodifiableSet(new TreeSet<>(List.of(
            "slack",
            "discord",
            "signal",
            "signal-desktop",
            "telegram-desktop",
            "telegramdesktop",
            "element",
            "thunderbird",
            "evolution",
            "geary",
            "kmail",
            "mailspring",
            "teams",
            "teams-for-linux",
            "microsoft teams - preview",
            "zoom",
            "skype",
            "whatsapp",
            "whatsapp-for-linux",
            "mattermost",
            "hexchat",
            "pidgin",
            "ferdium",
            "rambox",
            "zulip",
            "wire",
            "thunderbird-esr")));

    /** Default denied hosts: sign-in, payment, password-manager and web mail/chat hosts. */
    public static final Set<String> DEFAULT_DENIED_HOSTS = Collections.unmodifiableSet(new TreeSet<>(List.of(
            "accounts.google.com",
            "login.microsoftonline.com",
            "login.live.com",
            "appleid.apple.com",
            "paypal.com",
            "vault.bitwarden.com",
            "my.1password.com",
            "lastpass.com",
            "mail.google.com",
            "outlook.live.com",
            "outlook.office.com",
            "mail.proton.me",
            "web.whatsapp.com",
            "app.slack.com",
            "discord.com",
            "web.telegram.org")));

    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);
    public static final Duration MAX_POLL_INTERVAL = Duration.ofSeconds(60);

    public PolicyConfig {
        if (permissionMode == null) {
            permissionMode = PermissionMode.ASK;
        }
        Set<String> cred = apps(credentialApps, "credentialApps");
        cred.addAll(BUILTIN_CREDENTIAL_APPS);
        credentialApps = Collections.unmodifiableSet(cred);
        Set<String> comms = apps(commsApps, "commsApps");
        commsApps = Collections.unmodifiableSet(comms.isEmpty() ? new TreeSet<>(DEFAULT_COMMS_APPS) : comms);
        Set<String> denied = hosts(deniedHosts, "deniedHosts");
        deniedHosts = Collections.unmodifiableSet(denied.isEmpty() ? new TreeSet<>(DEFAULT_DENIED_HOSTS) : denied);
        allowedHosts = Collections.unmodifiableSet(hosts(allowedHosts, "allowedHosts"));
        if (caps == null) {
            caps = Caps.defaults();
        }
        if (pollInterval == null) {
            pollInterval = DEFAULT_POLL_INTERVAL;
        }
        MintRequest.requirePositive(pollInterval, "pollInterval");
        if (pollInterval.compareTo(MAX_POLL_INTERVAL) > 0) {
            throw new IllegalArgumentException(
                    "pollInterval must be at most " + MAX_POLL_INTERVAL + ", was " + pollInterval);
        }
        List<List<String>> cmds = new ArrayList<>();
        if (enabledCommands != null) {
            for (List<String> argv : enabledCommands) {
                if (argv == null || argv.isEmpty()) {
                    throw new IllegalArgumentException("enabledCommands entries must be non-empty argv lists");
                }
                for (String s : argv) {
                    if (s == null) {
                        throw new IllegalArgumentException("enabledCommands argv " + argv + " must not contain null");
                    }
                }
                if (argv.get(0).isBlank()) {
                    throw new IllegalArgumentException("enabledCommands argv " + argv + " must name a program first");
                }
                cmds.add(List.copyOf(argv));
            }
        }
        enabledCommands = List.copyOf(cmds);
        if (verifierRoots != null) {
            for (String root : verifierRoots) {
                if (root == null || !root.startsWith("/") || root.indexOf('\0') >= 0 || root.length() > 4096) {
                    throw new IllegalArgumentException("verifierRoots entries must be absolute paths, was " + root);
                }
            }
            verifierRoots = List.copyOf(verifierRoots);
        }
        if (consequentialWords == null) {
            consequentialWords = ConsequentialWords.defaults();
        }
        if (allowLocalFiles == null) allowLocalFiles = true;
    }

    /** A policy without {@code allowLocalFiles} (written before the field existed): local documents allowed. */
    public PolicyConfig(
            PermissionMode permissionMode,
            Set<String> credentialApps,
            Set<String> commsApps,
            Set<String> deniedHosts,
            Set<String> allowedHosts,
            Caps caps,
            Duration pollInterval,
            List<List<String>> enabledCommands,
            List<String> verifierRoots,
            ConsequentialWords consequentialWords) {
        this(
                permissionMode,
                credentialApps,
                commsApps,
                deniedHosts,
                allowedHosts,
                caps,
                pollInterval,
                enabledCommands,
                verifierRoots,
                consequentialWords,
                null);
    }

    /** A policy without {@code verifierRoots} or {@code consequentialWords} (written before the fields existed): the defaults. */
    public PolicyConfig(
            PermissionMode permissionMode,
            Set<String> credentialApps,
            Set<String> commsApps,
            Set<String> deniedHosts,
            Set<String> allowedHosts,
            Caps caps,
            Duration pollInterval,
            List<List<String>> enabledCommands) {
        this(
                permissionMode,
                credentialApps,
                commsApps,
                deniedHosts,
                allowedHosts,
                caps,
                pollInterval,
                enabledCommands,
                null,
                null);
    }

    /** The defaults the very first start writes. */
    public static PolicyConfig defaults() {
        return new PolicyConfig(PermissionMode.ASK, null, null, null, null, null, null, null);
    }

    /** Built-in credential entries {@code given} lacks (the constructor re-adds them; use this to warn). */
    public static Set<String> missingBuiltins(Set<String> given) {
        Set<String> missing = new TreeSet<>(BUILTIN_CREDENTIAL_APPS);
        if (given != null) {
            for (String g : given) {
                if (g != null) {
                    missing.remove(g.trim().toLowerCase(Locale.ROOT));
                }
            }
        }
        return missing;
    }

    /** Whether {@code argv} is exactly one of the enabled commands. */
    public boolean commandEnabled(List<String> argv) {
        return enabledCommands.contains(argv);
    }

    /** Whether {@code host} (lower case) is denied: listed in, or a subdomain of an entry in, deniedHosts. */
    public boolean hostDenied(String host) {
        return matches(deniedHosts, host);
    }

    /** Whether {@code host} passes the allow-list (always, when the allow-list is empty). */
    public boolean hostAllowed(String host) {
        return allowedHosts.isEmpty() || matches(allowedHosts, host);
    }

    public PolicyConfig withPermissionMode(PermissionMode v) {
        return new PolicyConfig(
                v,
                credentialApps,
                commsApps,
                deniedHosts,
                allowedHosts,
                caps,
                pollInterval,
                enabledCommands,
                verifierRoots,
                consequentialWords,
                allowLocalFiles);
    }

    public PolicyConfig withCredentialApps(Set<String> v) {
        return new PolicyConfig(
                permissionMode,
                v,
                commsApps,
                deniedHosts,
                allowedHosts,
                caps,
                pollInterval,
                enabledCommands,
                verifierRoots,
                consequentialWords,
                allowLocalFiles);
    }

    public PolicyConfig withCommsApps(Set<String> v) {
        return new PolicyConfig(
                permissionMode,
                credentialApps,
                v,
                deniedHosts,
                allowedHosts,
                caps,
                pollInterval,
                enabledCommands,
                verifierRoots,
                consequentialWords,
                allowLocalFiles);
    }

    public PolicyConfig withDeniedHosts(Set<String> v) {
        return new PolicyConfig(
                permissionMode,
                credentialApps,
                commsApps,
                v,
                allowedHosts,
                caps,
                pollInterval,
                enabledCommands,
                verifierRoots,
                consequentialWords,
                allowLocalFiles);
    }

    public PolicyConfig withAllowedHosts(Set<String> v) {
        return new PolicyConfig(
                permissionMode,
                credentialApps,
                commsApps,
                deniedHosts,
                v,
                caps,
                pollInterval,
                enabledCommands,
                verifierRoots,
                consequentialWords,
                allowLocalFiles);
    }

    public PolicyConfig withCaps(Caps v) {
        return new PolicyConfig(
                permissionMode,
                credentialApps,
                commsApps,
                deniedHosts,
                allowedHosts,
                v,
                pollInterval,
                enabledCommands,
                verifierRoots,
                consequentialWords,
                allowLocalFiles);
    }

    public PolicyConfig withPollInterval(Duration v) {
        return new PolicyConfig(
                permissionMode,
                credentialApps,
                commsApps,
                deniedHosts,
                allowedHosts,
                caps,
                v,
                enabledCommands,
                verifierRoots,
                consequentialWords,
                allowLocalFiles);
    }

    public PolicyConfig withVerifierRoots(List<String> v) {
        return new PolicyConfig(
                permissionMode,
                credentialApps,
                commsApps,
                deniedHosts,
                allowedHosts,
                caps,
                pollInterval,
                enabledCommands,
                v,
                consequentialWords,
                allowLocalFiles);
    }

    public PolicyConfig withConsequentialWords(ConsequentialWords v) {
        return new PolicyConfig(
                permissionMode,
                credentialApps,
                commsApps,
                deniedHosts,
                allowedHosts,
                caps,
                pollInterval,
                enabledCommands,
                verifierRoots,
                v,
                allowLocalFiles);
    }

    public PolicyConfig withAllowLocalFiles(boolean v) {
        return new PolicyConfig(
                permissionMode,
                credentialApps,
                commsApps,
                deniedHosts,
                allowedHosts,
                caps,
                pollInterval,
                enabledCommands,
                verifierRoots,
                consequentialWords,
                v);
    }

    public PolicyConfig withEnabledCommands(List<List<String>> v) {
        return new PolicyConfig(
                permissionMode,
                credentialApps,
                commsApps,
                deniedHosts,
                allowedHosts,
                caps,
                pollInterval,
                v,
                verifierRoots,
                consequentialWords,
                allowLocalFiles);
    }

    /**
     * Ceilings and defaults. A run's {@code maxSteps}/{@code timeoutSeconds} may only lower them
     * ({@link #lowered}).
     *
     * @param maxSteps step cap per run, 1..1000 (default 60)
     * @param wallClock wall-clock cap per run, 1 s..24 h (default 10 min)
     * @param budget default action budget of a new grant, 1..{@value MintRequest#MAX_BUDGET} (default 100)
     * @param idleExpiry default idle expiry of a new grant, 1 s..24 h (default 15 min)
     */
    public record Caps(int maxSteps, Duration wallClock, int budget, Duration idleExpiry) {

        public static final int DEFAULT_MAX_STEPS = 60;
        public static final Duration DEFAULT_WALL_CLOCK = Duration.ofMinutes(10);
        public static final int DEFAULT_BUDGET = 100;
        public static final Duration DEFAULT_IDLE_EXPIRY = Duration.ofMinutes(15);
        private static final Duration DAY = Duration.ofHours(24);

        public Caps {
            if (maxSteps < 1 || maxSteps > 1000) {
                throw new IllegalArgumentException("caps.maxSteps must be in 1..1000, was " + maxSteps);
            }
            bounded(wallClock, "caps.wallClock");
            MintRequest.requireBudget(budget, "caps.budget");
            bounded(idleExpiry, "caps.idleExpiry");
        }

        public static Caps defaults() {
            return new Caps(DEFAULT_MAX_STEPS, DEFAULT_WALL_CLOCK, DEFAULT_BUDGET, DEFAULT_IDLE_EXPIRY);
        }

        /** These caps lowered (never raised) by a run's optional {@code maxSteps} and {@code timeoutSeconds}. */
        public Caps lowered(Integer runMaxSteps, Integer runTimeoutSeconds) {
            int steps = maxSteps;
            if (runMaxSteps != null) {
                if (runMaxSteps < 1) {
                    throw new IllegalArgumentException("maxSteps must be >= 1, was " + runMaxSteps);
                }
                steps = Math.min(steps, runMaxSteps);
            }
            Duration wall = wallClock;
            if (runTimeoutSeconds != null) {
                if (runTimeoutSeconds < 1) {
                    throw new IllegalArgumentException("timeoutSeconds must be >= 1, was " + runTimeoutSeconds);
                }
                Duration t = Duration.ofSeconds(runTimeoutSeconds);
                wall = t.compareTo(wall) < 0 ? t : wall;
            }
            return new Caps(steps, wall, budget, idleExpiry);
        }

        public Caps withMaxSteps(int v) {
            return new Caps(v, wallClock, budget, idleExpiry);
        }

        public Caps withWallClock(Duration v) {
            return new Caps(maxSteps, v, budget, idleExpiry);
        }

        public Caps withBudget(int v) {
            return new Caps(maxSteps, wallClock, v, idleExpiry);
        }

        public Caps withIdleExpiry(Duration v) {
            return new Caps(maxSteps, wallClock, budget, v);
        }

        private static void bounded(Duration d, String field) {
            MintRequest.requirePositive(d, field);
            if (d.compareTo(Duration.ofSeconds(1)) < 0 || d.compareTo(DAY) > 0) {
                throw new IllegalArgumentException(field + " must be between 1 s and 24 h, was " + d);
            }
        }
    }

    private static Set<String> apps(Set<String> in, String field) {
        Set<String> out = new TreeSet<>();
        if (in != null) {
            for (String s : in) {
                if (s == null || s.isBlank()) {
                    throw new IllegalArgumentException(field + " entries must not be blank");
                }
                out.add(s.trim().toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }

    private static Set<String> hosts(Set<String> in, String field) {
        Set<String> out = new TreeSet<>();
        if (in != null) {
            for (String s : in) {
                if (s == null || s.isBlank()) {
                    throw new IllegalArgumentException(field + " entries must not be blank");
                }
                String h = s.trim().toLowerCase(Locale.ROOT);
                if (!h.matches("[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*")) {
                    throw new IllegalArgumentException(
                            field + " entry '" + s + "' must be a bare host name (no scheme, port or path)");
                }
                out.add(h);
            }
        }
        return out;
    }

    private static boolean matches(Set<String> entries, String host) {
        String h = host.toLowerCase(Locale.ROOT);
        for (String e : entries) {
            if (h.equals(e) || h.endsWith("." + e)) {
                return true;
            }
        }
        return false;
    }
}
