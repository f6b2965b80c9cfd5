package dev.deckhand.grant;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The places no app may be steered into through its file dialog, address bar or {@code file://} page:
 * Deckhand's config directory (its tokens, provider key and audit seal key) and the file verifier's built-in
 * denied set (keyrings, browser profiles, {@code ~/.ssh}, {@code ~/.gnupg}, {@code /proc}, ...), plus every
 * hidden file or directory. The application builds the set from its home directory and the verifier's list;
 * this class only decides, purely, whether a path — or a path named in a text — lies in one.
 *
 * <p>It decides by resolving, never by words: a path is taken as spelled, lexically normalised ({@code //},
 * {@code .}, {@code ..} and a trailing {@code /} fall away; {@code ..} as file dialogs apply it) and with its
 * symbolic links resolved where they exist ({@link Links}); it is in a place when any of these forms lies
 * under the place (as given or resolved), comparing names without regard to case (a case-insensitive file
 * system, a look-alike spelling: both fail closed). A text names a path where one starts — at the text's
 * start, or after a space, quote or bracket — as an absolute path, {@code ~} or {@code ~/…}, {@code $HOME}
 * or {@code ${HOME}}, or a {@code file:} URL (any host); each is tried to the end of the text and cut at
 * the first space or closing quote or bracket, and the text is tried again percent-decoded.
 */
public final class DeniedPlaces {

    /** What a hit names when the path has a hidden component but lies in no listed place. */
    public static final String HIDDEN = "a hidden file or directory";

    /** A denied place and the words a refusal uses for it (never the path the text spelled). */
    public record Place(Path path, String kind) {
        public Place {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(kind, "kind");
            if (!path.isAbsolute()) throw new IllegalArgumentException("a denied place is absolute: " + path);
            path = path.normalize();
        }
    }

    /** Resolves the symbolic links of an absolute path where they exist (what does not exist is kept as spelled). */
    @FunctionalInterface
    public interface Links {
        Path resolve(Path absolute);

        /** No links (tests, or a file system without them). */
        Links NONE = p -> p;
    }

    /**
     * Whether a directory is a place of its own kind wherever it lies (a browser's profile, known by the files the
     * browser keeps in it): the fact, read from the file system, where a list of paths cannot know every place.
     */
    @FunctionalInterface
    public interface Marks {
        /** The kind of place {@code dir} is; empty when none. */
        Optional<String> kindOf(Path dir);

        /** No directory is marked (tests, or no file system). */
        Marks NONE = d -> Optional.empty();
    }

    /** No place at all, hidden names allowed: the loop's tests that are not about places. */
    public static final DeniedPlaces NONE = new DeniedPlaces(Path.of("/"), List.of(), false, Links.NONE);

    private static final int MAX_DECODES = 3;
    /** A path is at most this long (PATH_MAX); a reading of a text is cut there. */
    static final int MAX_PATH = 4096;
    /** At most this many distinct paths are judged in one text; a text naming more is refused whole. */
    static final int MAX_PATHS = 512;
    /** What a hit names when a text names more paths than are judged. */
    public static final String TOO_MANY = "more paths than Deckhand judges in one text (" + MAX_PATHS + ")";
    /** Characters after which a path may start in a text. */
    private static final String OPENERS = "\"'`<>([{,;=|";
    /** Characters at which a path named in a text may end. */
    private static final String CLOSERS = "\"'`<>)]},;|";

    private final Path home;
    private final List<Place> places;
    private final boolean hidden;
    private final Links links;
    private final Marks marks;

    /**
     * @param home the person's home directory, for {@code ~} and {@code $HOME}
     * @param places the denied places, in the order a hit names them (the first that holds the path)
     * @param hidden whether every path with a component starting with {@code .} is denied too
     * @param links how symbolic links are resolved
     */
    public DeniedPlaces(Path home, List<Place> places, boolean hidden, Links links) {
        this(home, places, hidden, links, Marks.NONE);
    }

    /**
     * @param marks which directories are places by what they hold (a browser's profile wherever it lies): a path under
     *     one is denied as that kind
     */
    public DeniedPlaces(Path home, List<Place> places, boolean hidden, Links links, Marks marks) {
        this.home = Objects.requireNonNull(home, "home").toAbsolutePath().normalize();
        this.links = Objects.requireNonNull(links, "links");
        this.marks = Objects.requireNonNull(marks, "marks");
        this.hidden = hidden;
        this.places = List.copyOf(places);
    }

    public Path home() {
        return home;
    }

    /**
     * Devices that hold nothing and give nothing but zeros or noise, named in ordinary command lines
     * ({@code 2>/dev/null}): no place, wherever the system's virtual directories are denied (round 6: every shell
     * line that dropped its output was refused). Only these, as themselves: a link to one is read where it leads.
     */
    private static final Set<Path> INERT = Set.of(
            Path.of("/dev/null"),
            Path.of("/dev/zero"),
            Path.of("/dev/full"),
            Path.of("/dev/random"),
            Path.of("/dev/urandom"));

    /**
     * One of the {@link #INERT} devices, also as a reading that runs on past the character a command line ends its
     * name with ({@code 2>/dev/null; echo ok} or {@code cp /dev/null x} read as one name, round 8: every such line was
     * refused). The text's other paths are judged on their own.
     */
    private static boolean inert(Path form) {
        if (INERT.contains(form)) return true;
        String s = form.toString();
        for (Path device : INERT) {
            String d = device.toString();
            if (s.length() > d.length() && s.startsWith(d) && ends(s.charAt(d.length()))) return true;
        }
        return false;
    }

    /** A character a command line ends a name with: a closer or white space. */
    private static boolean ends(char c) {
        return CLOSERS.indexOf(c) >= 0 || Character.isWhitespace(c);
    }

    /** The kind of denied place {@code path} (absolute) lies in; empty when it lies in none. */
    public Optional<String> kindOf(Path path) {
        return kindOf(List.of(path));
    }

    /** The first listed place any of {@code paths} lies in, else the hidden rule; empty when none. */
    private Optional<String> kindOf(List<Path> paths) {
        Set<Path> forms = new LinkedHashSet<>();
        for (Path path : paths) {
            if (!path.isAbsolute()) continue;
            forms.add(path.normalize());
            forms.add(links.resolve(path).normalize());
        }
        forms.removeIf(DeniedPlaces::inert);
        if (forms.isEmpty()) return Optional.empty();
        for (Place p : places) {
            // a place's own links are resolved now: one made a link after the start counts too
            Path real = links.resolve(p.path()).normalize();
            for (Path f : forms) {
                if (under(f, p.path()) || under(f, real)) return Optional.of(p.kind());
            }
        }
        // a directory that holds what a browser keeps in its profile is one, wherever it lies (round 11: a profile
        // under /tmp, which no listed path names)
        for (Path f : forms) {
            for (Path dir = f; dir != null; dir = dir.getParent()) {
                Optional<String> kind = marks.kindOf(dir);
                if (kind.isPresent()) return kind;
            }
        }
        if (hidden) {
            for (Path f : forms) {
                for (Path c : f) {
                    if (c.toString().startsWith(".")) return Optional.of(HIDDEN);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The kind of denied place a path named in {@code text} lies in; empty when it names none. A listed
     * place wins over the hidden rule whichever reading of the text reaches it.
     *
     * @param folder the folder a relative name resolves against (a file chooser's location): when given,
     *     the whole text (trimmed) is also read as a name relative to it
     */
    public Optional<String> inText(String text, Optional<Path> folder) {
        if (text == null || text.isEmpty()) return Optional.empty();
        Set<Path> named = new LinkedHashSet<>();
        for (String variant : decodings(text)) {
            if (folder.isPresent()) {
                String whole = variant.strip();
                if (!whole.isEmpty() && startsOf(whole).isEmpty())
                    path(folder.get(), whole).ifPresent(named::add);
            }
            for (int i = 0; i < variant.length(); i++) {
                // a file: URL starts anywhere (view-source:file:///…, jar:file:…, a scheme wrapping it); other
                // starts only after an opener
                boolean fileUrl = variant.regionMatches(true, i, "file:", 0, 5);
                if (!fileUrl && (i > 0 && !opens(variant.charAt(i - 1)) || "/~$".indexOf(variant.charAt(i)) < 0))
                    continue;
                // ("file://" or "${HOME}" and a longest path)
                String from = variant.substring(i, Math.min(variant.length(), i + MAX_PATH + 8));
                for (String start : startsOf(from)) {
                    String bounded = start.length() > MAX_PATH ? start.substring(0, MAX_PATH) : start;
                    for (String candidate : cuts(bounded)) path(null, candidate).ifPresent(named::add);
                }
                if (named.size() > MAX_PATHS) break;
            }
        }
        // each reading costs a walk of its links: a text of thousands of path starts is refused, not walked
        if (named.size() > MAX_PATHS) return Optional.of(TOO_MANY);
        return kindOf(List.copyOf(named));
    }

    /** Whether {@code text} (trimmed) starts as a path: absolute, {@code ~}, {@code $HOME} or a {@code file:} URL. */
    public boolean namesPath(String text) {
        return text != null
                && decodings(text.strip()).stream()
                        .anyMatch(v -> !startsOf(v.strip()).isEmpty());
    }

    /**
     * {@code text} as an absolute path when it starts as one; the rest of the text follows it unchanged. A
     * {@code file:} URL gives its path after any host, and also everything after {@code file:} read as a
     * path (so {@code file://home/ann/x} counts as {@code /home/ann/x} too: fail closed).
     */
    private List<String> startsOf(String text) {
        if (text.isEmpty()) return List.of();
        char c = text.charAt(0);
        if (c == '/') return List.of(text);
        if (c == '~' && (text.length() == 1 || text.charAt(1) == '/')) return List.of(home + text.substring(1));
        if (text.startsWith("$HOME") && (text.length() == 5 || text.charAt(5) == '/')) {
            return List.of(home + text.substring(5));
        }
        if (text.startsWith("${HOME}")) return List.of(home + text.substring(7));
        if (text.regionMatches(true, 0, "file:", 0, 5)) {
            String rest = text.substring(5);
            if (!rest.startsWith("/")) return List.of();
            if (!rest.startsWith("//")) return List.of(rest);
            int slash = rest.indexOf('/', 2);
            return List.of(slash < 0 ? "/" : rest.substring(slash), rest);
        }
        return List.of();
    }

    /** The path to the end of the text, and cut at the first space, closing quote or bracket, query, fragment or a jar's {@code !}. */
    private static List<String> cuts(String path) {
        Set<String> out = new LinkedHashSet<>();
        out.add(path);
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (Character.isWhitespace(c) || CLOSERS.indexOf(c) >= 0 || c == '?' || c == '#' || c == '!') {
                out.add(path.substring(0, i));
                break;
            }
        }
        return List.copyOf(out);
    }

    private static Optional<Path> path(Path folder, String spelled) {
        try {
            Path p = folder == null ? Path.of(spelled) : folder.resolve(spelled);
            return p.isAbsolute() ? Optional.of(p) : Optional.empty();
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }

    private static boolean opens(char c) {
        return Character.isWhitespace(c) || OPENERS.indexOf(c) >= 0;
    }

    private static boolean under(Path path, Path place) {
        String p = path.toString().toLowerCase(Locale.ROOT);
        String d = place.toString().toLowerCase(Locale.ROOT);
        if (d.equals("/")) return true;
        return p.equals(d) || p.startsWith(d + "/");
    }

    /** The text, then the text percent-decoded as long as that changes it (double encodings included). */
    static List<String> decodings(String text) {
        List<String> out = new ArrayList<>();
        // a browser reads a backslash in a URL as a slash (file:\\\home\ann\.ssh, round 3 of the review): each
        // reading is also taken with backslashes as slashes
        for (String start : text.indexOf('\\') >= 0 ? List.of(text, text.replace('\\', '/')) : List.of(text)) {
            out.add(start);
            String t = start;
            for (int i = 0; i < MAX_DECODES && t.indexOf('%') >= 0; i++) {
                String d = percentDecoded(t);
                if (d.equals(t)) break;
                out.add(d);
                if (d.indexOf('\\') >= 0) out.add(d.replace('\\', '/'));
                t = d;
            }
        }
        return out;
    }

    /** {@code %XX} sequences decoded as UTF-8 bytes; anything else is kept as it is. */
    static String percentDecoded(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '%' && i + 2 < text.length() && hex(text.charAt(i + 1)) >= 0 && hex(text.charAt(i + 2)) >= 0) {
                bytes.write(hex(text.charAt(i + 1)) * 16 + hex(text.charAt(i + 2)));
                i += 2;
                continue;
            }
            if (bytes.size() > 0) {
                out.append(new String(bytes.toByteArray(), StandardCharsets.UTF_8));
                bytes.reset();
            }
            out.append(c);
        }
        if (bytes.size() > 0) out.append(new String(bytes.toByteArray(), StandardCharsets.UTF_8));
        return out.toString();
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }
}
