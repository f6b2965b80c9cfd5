package dev.deckhand.policy;

import dev.deckhand.grant.DeniedPlaces;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.home.DeckhandHome;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Which files a {@code file} verifier may read (docs/design.md#verifiers). A path is admitted only when
 * <ol>
 *   <li>it is absolute;</li>
 *   <li>no component of it, nor of what it resolves to (symbolic links followed, whether or not the file
 *       exists), starts with {@code .} — dotfiles hold the secrets ({@code ~/.ssh}, {@code ~/.aws},
 *       {@code ~/.netrc}, shell history, every app's config);</li>
 *   <li>it resolves outside the built-in denied set, which no policy can remove: Deckhand's config
 *       directory (tokens, provider key, audit seal key), the keyrings, {@code ~/.ssh}, {@code ~/.gnupg},
 *       browser profiles, {@code /proc},
 *       {@code /sys}, {@code /dev}, {@code /run};</li>
 *   <li>it resolves under one of the policy's {@code verifierRoots}; by default the XDG user directories
 *       ({@code ~/.config/user-dirs.dirs} when present, else Documents, Desktop, Downloads, Pictures, Music,
 *       Videos, Public and Templates under the home directory) and {@code /tmp}.</li>
 * </ol>
 * {@link #check} decides before the run starts; each refusal is {@code OUT_OF_SCOPE} naming the rule, and
 * depends on the path's spelling and its symbolic links only, never on whether the file exists.
 * {@link #openable} decides again where the file is opened, on its real path.
 */
@ApplicationScoped
public class FileVerifierScope {

    /** The XDG user directories when {@code user-dirs.dirs} is absent. */
    static final List<String> XDG_DEFAULT_NAMES =
            List.of("Documents", "Desktop", "Downloads", "Pictures", "Music", "Videos", "Public", "Templates");

    private static final Pattern USER_DIR = Pattern.compile("^\\s*XDG_[A-Z]+_DIR\\s*=\\s*\"([^\"]*)\"\\s*$");
    private static final int MAX_LINKS = 40;

    /** A place no verifier reads, with the words a refusal uses for it. */
    record Denied(Path path, String label) {}

    private final Path home;
    private final List<Denied> denied;
    private final DeniedPlaces places;

    @Inject
    public FileVerifierScope(DeckhandHome home) {
        this(Path.of(System.getProperty("user.home")), home.dir());
    }

    /** For a given home directory and config directory (tests; the bean uses {@code user.home} and the config directory). */
    public FileVerifierScope(Path home, Path configDir) {
        this(home, configDir, System.getenv());
    }

    /**
     * The XDG base directories the session may move out of the home directory ({@code XDG_DATA_HOME=/tmp/x/data}):
     * hidden under the home directory by default, and as denied where they are moved to (round 12's K1: the keyrings
     * under a moved {@code XDG_DATA_HOME} were read).
     */
    static final List<String> XDG_BASES =
            List.of("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME");

    /** For a given home directory, config directory and environment (its XDG base directories). */
    public FileVerifierScope(Path home, Path configDir, java.util.Map<String, String> env) {
        this.home = home.toAbsolutePath().normalize();
        List<Denied> d = new ArrayList<>();
        d.add(new Denied(configDir, "Deckhand's config directory"));
        d.add(new Denied(this.home.resolve(".local/share/keyrings"), "the keyrings"));
        String data = env.get("XDG_DATA_HOME");
        if (data != null && data.startsWith("/")) d.add(new Denied(Path.of(data, "keyrings"), "the keyrings"));
        for (String base : XDG_BASES) {
            String dir = env.get(base);
            if (dir != null && dir.startsWith("/") && !Path.of(dir).normalize().equals(this.home))
                d.add(new Denied(Path.of(dir), "the person's " + base + " (hidden in the home directory by default)"));
        }
        // hidden anyway; named so that a refusal says which keys, and denied where a link to them leads
        d.add(new Denied(this.home.resolve(".ssh"), "~/.ssh"));
        d.add(new Denied(this.home.resolve(".gnupg"), "~/.gnupg"));
        for (String browser : List.of(
                ".mozilla",
                ".config/google-chrome",
                ".config/chromium",
                ".config/BraveSoftware",
                ".config/microsoft-edge",
                ".config/vivaldi",
                ".config/opera",
                "snap/firefox",
                "snap/chromium",
                ".var/app")) {
            d.add(new Denied(this.home.resolve(browser), "a browser profile"));
        }
        for (String system : List.of("/proc", "/sys", "/dev", "/run")) d.add(new Denied(Path.of(system), system));
        this.denied = List.copyOf(d);
        this.places = new DeniedPlaces(
                this.home,
                d.stream().map(x -> new DeniedPlaces.Place(x.path(), x.label())).toList(),
                true,
                FileVerifierScope::resolve,
                FileVerifierScope::browserProfile);
    }

    /**
     * The files a browser keeps in its profile, whatever the profile's path ({@code --user-data-dir}, {@code -profile})
     * or a copy of it (round 12's PC1: a profile's {@code Default} copied away from its {@code Local State}): Chromium's
     * {@code Local State} at its top and {@code Login Data} and {@code Cookies} in each profile; Firefox's profiles'
     * index {@code profiles.ini} and in each profile {@code prefs.js}, {@code key4.db}, {@code logins.json},
     * {@code cookies.sqlite}.
     */
    static final List<String> PROFILE_MARKS = List.of(
            "Local State",
            "Login Data",
            "Cookies",
            "prefs.js",
            "profiles.ini",
            "key4.db",
            "logins.json",
            "cookies.sqlite");

    /** "a browser profile" when {@code dir} holds a file a browser keeps at the top of its profile. */
    static Optional<String> browserProfile(Path dir) {
        for (String mark : PROFILE_MARKS) {
            if (Files.isRegularFile(dir.resolve(mark))) return Optional.of("a browser profile");
        }
        return Optional.empty();
    }

    /**
     * The same denied set — the config directory, keyrings, browser profiles, keys, the system's virtual
     * directories and every hidden file or directory — as the places no file dialog, address bar or
     * {@code file://} page may reach during a run ({@code DENY_PATH}); links resolved as here.
     */
    public DeniedPlaces deniedPlaces() {
        return places;
    }

    /** The refusal for a {@code file} verifier naming {@code path} under {@code policy}; empty when it may be read. */
    public Optional<Refusal> check(String path, PolicyConfig policy) {
        Path given;
        try {
            given = Path.of(path);
        } catch (InvalidPathException e) {
            return refuse(path, "it is not a path");
        }
        if (!given.isAbsolute()) return refuse(path, "only an absolute path can be checked");
        if (hidden(given)) return refuse(path, HIDDEN);
        return checkResolved(path, resolve(given), policy);
    }

    /**
     * The real path to open for {@code path}, checked again now (a symbolic link may have changed since
     * {@link #check}); empty when nothing exists there. Open it without following links.
     *
     * @throws RefusedException OUT_OF_SCOPE when the path is out of scope now
     */
    public Optional<Path> openable(String path, PolicyConfig policy) throws IOException {
        check(path, policy).ifPresent(r -> {
            throw new RefusedException(r);
        });
        Path real;
        try {
            real = Path.of(path).toRealPath();
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        Optional<Refusal> now = checkResolved(path, real, policy);
        if (now.isPresent()) throw new RefusedException(now.get());
        return Optional.of(real);
    }

    /** The roots {@code policy} admits: its {@code verifierRoots}, or the default. */
    List<Path> roots(PolicyConfig policy) {
        if (policy.verifierRoots() != null)
            return policy.verifierRoots().stream().map(Path::of).toList();
        List<Path> roots = new ArrayList<>(userDirs());
        roots.add(Path.of("/tmp"));
        return roots;
    }

    /** The XDG user directories: from {@code ~/.config/user-dirs.dirs} when it exists, else the usual names. */
    List<Path> userDirs() {
        Path file = home.resolve(".config/user-dirs.dirs");
        if (!Files.isRegularFile(file))
            return XDG_DEFAULT_NAMES.stream().map(home::resolve).toList();
        List<Path> dirs = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                Matcher m = USER_DIR.matcher(line);
                if (!m.matches()) continue;
                String value = m.group(1);
                if (value.equals("$HOME") || value.startsWith("$HOME/")) value = home + value.substring(5);
                if (!value.startsWith("/")) continue;
                Path dir = Path.of(value).normalize();
                // A directory set to the home directory itself means "not used" (xdg-user-dirs).
                if (!dir.equals(home)) dirs.add(dir);
            }
        } catch (IOException | InvalidPathException e) {
            return XDG_DEFAULT_NAMES.stream().map(home::resolve).toList();
        }
        return dirs;
    }

    private static final String HIDDEN =
            "a path component starts with '.' (hidden files and directories hold " + "secrets and are never read)";

    private Optional<Refusal> checkResolved(String path, Path resolved, PolicyConfig policy) {
        if (hidden(resolved)) return refuse(path, HIDDEN);
        for (Denied d : denied) {
            if (resolved.startsWith(d.path()) || resolved.startsWith(resolve(d.path()))) {
                return refuse(path, "it resolves into " + d.label() + ", which Deckhand never reads");
            }
        }
        for (Path dir = resolved; dir != null; dir = dir.getParent()) {
            Optional<String> kind = browserProfile(dir);
            if (kind.isPresent())
                return refuse(path, "it resolves into " + kind.get() + ", which Deckhand never reads");
        }
        List<Path> roots = roots(policy);
        for (Path root : roots) {
            if (resolved.startsWith(resolve(root))) return Optional.empty();
        }
        String listed = roots.stream().map(Path::toString).collect(Collectors.joining(", "));
        return refuse(
                path,
                "it is not under a verifier root ("
                        + (policy.verifierRoots() == null
                                ? "the default: the XDG user directories and /tmp: "
                                : "the policy's verifierRoots: ")
                        + (listed.isEmpty() ? "none" : listed) + ")");
    }

    private static Optional<Refusal> refuse(String path, String rule) {
        String shown = path.length() > 200 ? path.substring(0, 199) + "…" : path;
        return Optional.of(Refusal.outOfScope("file verifier path \"" + shown + "\": " + rule));
    }

    private static boolean hidden(Path p) {
        for (Path c : p) {
            if (c.toString().startsWith(".")) return true;
        }
        return false;
    }

    /**
     * {@code p} with every symbolic link resolved, component by component, whether or not the rest exists
     * (what does not exist is taken as spelled); {@code ..} after a link applies to where the link led.
     * A loop of links resolves to the path as far as it got.
     */
    static Path resolve(Path p) {
        Path abs = p.toAbsolutePath();
        Path result = abs.getRoot();
        Deque<String> pending = new ArrayDeque<>();
        for (Path c : abs) pending.addLast(c.toString());
        int links = 0;
        // below a component that does not exist nothing exists, so nothing is looked up there (a typed text
        // can name thousands of such paths); a ".." climbs back to where things may exist again
        boolean missing = false;
        while (!pending.isEmpty()) {
            String c = pending.removeFirst();
            if (c.isEmpty() || c.equals(".")) continue;
            if (c.equals("..")) {
                if (result.getParent() != null) result = result.getParent();
                missing = false;
                continue;
            }
            Path next = result.resolve(c);
            if (missing) {
                result = next;
                continue;
            }
            if (!Files.exists(next, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                missing = true;
                result = next;
                continue;
            }
            if (links < MAX_LINKS && Files.isSymbolicLink(next)) {
                links++;
                Path target;
                try {
                    target = Files.readSymbolicLink(next);
                } catch (IOException e) {
                    result = next;
                    continue;
                }
                List<String> parts = new ArrayList<>();
                for (Path t : target) parts.add(t.toString());
                for (int i = parts.size() - 1; i >= 0; i--) pending.addFirst(parts.get(i));
                if (target.isAbsolute()) result = target.getRoot();
            } else {
                result = next;
            }
        }
        return result;
    }
}
