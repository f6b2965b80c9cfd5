package dev.deckhand.grant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The denied-places matcher over generated spellings: every way of writing a path into the config directory
 * or {@code ~/.ssh} — absolute, {@code ~}, {@code $HOME}, {@code ${HOME}}, in upper case, with {@code //},
 * {@code .} and {@code ..} segments, a trailing slash, as a {@code file:} URL with and without a host,
 * percent-encoded once or twice, quoted or inside a sentence, through a link — names the place; the controls
 * next to them (a sibling with a longer name, a {@code ..} that leaves the place, another scheme) do not.
 */
@Tag("pure")
class DeniedPlacesTest {

    static final Path HOME = Path.of("/home/ann");
    static final String CONFIG = "/home/ann/deckhand-home";
    static final String CONFIG_KIND = "Deckhand's config directory";

    /** {@code /tmp/link} is a symbolic link to the config directory, {@code /srv/keys} to {@code ~/.ssh}. */
    static final DeniedPlaces.Links LINKS = p -> {
        String s = p.toString();
        if (s.equals("/tmp/link") || s.startsWith("/tmp/link/")) return Path.of(CONFIG + s.substring(9));
        if (s.equals("/srv/keys") || s.startsWith("/srv/keys/")) return Path.of("/home/ann/.ssh" + s.substring(9));
        return p;
    };

    static final DeniedPlaces PLACES = new DeniedPlaces(
            HOME,
            List.of(
                    new DeniedPlaces.Place(Path.of(CONFIG), CONFIG_KIND),
                    new DeniedPlaces.Place(HOME.resolve(".ssh"), "~/.ssh"),
                    new DeniedPlaces.Place(Path.of("/proc"), "/proc")),
            true,
            LINKS);

    /** Spellings of {@code rest} (a path under the home directory, no leading slash) as the start of a path. */
    static List<String> starts(String rest) {
        return List.of("/home/ann/" + rest, "~/" + rest, "$HOME/" + rest, "${HOME}/" + rest);
    }

    /** Ways to bend the spelling of a path without leaving where it points. */
    static final List<UnaryOperator<String>> BENDS = List.of(
            s -> s,
            s -> s + "/",
            s -> s.replace("/", "//"),
            s -> s.replace("ann/", "ann/Documents/../"),
            s -> s.replace("ann/", "ann/./"),
            s -> s.replace("ann/", "ann/x/y/../../"),
            s -> s.startsWith("/")
                    ? s.toUpperCase(Locale.ROOT)
                    : s.substring(0, s.indexOf('/') + 1)
                            + s.substring(s.indexOf('/') + 1).toUpperCase(Locale.ROOT));

    /** Ways to carry a path in a text. */
    static final List<UnaryOperator<String>> CARRIERS = List.of(
            s -> s,
            s -> "  " + s,
            s -> "\"" + s + "\"",
            s -> "open " + s + " and read it",
            s -> "(" + s + ")",
            s -> "--file=" + s);

    /** Ways to make an absolute path a URL. */
    static final List<UnaryOperator<String>> URLS = List.of(
            s -> "file://" + s,
            s -> "FILE://" + s,
            s -> "file://localhost" + s,
            s -> "file:" + s,
            s -> "file://" + encodeAll(s),
            s -> "file://" + encodeAll(s).replace("%", "%25"),
            s -> "file://" + s.replace("a", "%61").replace(".", "%2E").replace("/", "%2F"),
            s -> "file://" + s + "?x=1#top",
            // round 2 of the review: a scheme that wraps a file: URL (Chromium's view-source:)
            s -> "view-source:file://" + s,
            // round 3: a browser reads backslashes as slashes
            s -> "file:" + s.replace('/', '\\'),
            s -> "file://" + s.replace("/", "%5C"),
            s -> "jar:file:" + s + "!/x");

    static String encodeAll(String s) {
        StringBuilder b = new StringBuilder();
        for (byte x : s.getBytes(StandardCharsets.UTF_8)) b.append(String.format("%%%02X", x & 0xff));
        return b.toString();
    }

    /** Every generated text for {@code rest}, each with what made it. */
    static List<String[]> variants(String rest) {
        List<String[]> out = new ArrayList<>();
        for (String start : starts(rest)) {
            for (UnaryOperator<String> bend : BENDS) {
                String path = bend.apply(start);
                for (UnaryOperator<String> carrier : CARRIERS) out.add(new String[] {carrier.apply(path), start});
                if (path.startsWith("/")) {
                    for (UnaryOperator<String> url : URLS) {
                        for (UnaryOperator<String> carrier : CARRIERS)
                            out.add(new String[] {carrier.apply(url.apply(path)), start});
                    }
                }
            }
        }
        return out;
    }

    @Test
    void everySpellingOfAPathInTheConfigDirectoryNamesIt() {
        int checked = 0;
        for (String rest : List.of("deckhand-home/owner-token", "deckhand-home", "deckhand-home/eval/r1/report.json")) {
            for (String[] v : variants(rest)) {
                assertEquals(Optional.of(CONFIG_KIND), PLACES.inText(v[0], Optional.empty()), () -> "text: " + v[0]);
                checked++;
            }
        }
        assertTrue(checked > 1000, "generated " + checked);
    }

    /** A directory marked as a place by what it holds (a browser profile under /tmp) is one, with every path under it. */
    @Test
    void aMarkedDirectoryIsAPlaceWhereverItLies() {
        DeniedPlaces marked = new DeniedPlaces(
                HOME,
                List.of(),
                false,
                DeniedPlaces.Links.NONE,
                d -> d.equals(Path.of("/tmp/chr11")) ? Optional.of("a browser profile") : Optional.empty());
        for (String text : List.of(
                "/tmp/chr11/Default/canary.txt",
                "/tmp/chr11",
                "file:///tmp/chr11/Default/History",
                "cat /tmp/chr11/x")) {
            assertEquals(Optional.of("a browser profile"), marked.inText(text, Optional.empty()), text);
        }
        assertEquals(
                Optional.of("a browser profile"),
                marked.inText("Default/canary.txt", Optional.of(Path.of("/tmp/chr11"))));
        assertEquals(Optional.empty(), marked.inText("/tmp/chr12/Default/canary.txt", Optional.empty()));
    }

    @Test
    void everySpellingOfAPathInSshNamesItsPlace() {
        for (String[] v : variants(".ssh/id_ed25519")) {
            assertEquals(Optional.of("~/.ssh"), PLACES.inText(v[0], Optional.empty()), () -> "text: " + v[0]);
        }
    }

    @Test
    void aLinkIntoAPlaceNamesThePlaceItLeadsTo() {
        for (String t : List.of(
                "/tmp/link/owner-token",
                "/tmp/link",
                "file:///tmp/link/",
                "/tmp//link/./owner-token",
                "/srv/keys/id_rsa")) {
            assertTrue(PLACES.inText(t, Optional.empty()).isPresent(), t);
        }
        assertEquals(Optional.of(CONFIG_KIND), PLACES.inText("/tmp/link/owner-token", Optional.empty()));
        assertEquals(Optional.of("~/.ssh"), PLACES.inText("/srv/keys/id_rsa", Optional.empty()));
    }

    @Test
    void otherHiddenPathsNameTheHiddenRule() {
        for (String t : List.of(
                "~/.aws/credentials",
                "/home/ann/.netrc",
                "file:///home/ann/.config/other/x",
                "~/Documents/.secret/x")) {
            assertEquals(Optional.of(DeniedPlaces.HIDDEN), PLACES.inText(t, Optional.empty()), t);
        }
        DeniedPlaces noHidden = new DeniedPlaces(HOME, List.of(), false, DeniedPlaces.Links.NONE);
        assertEquals(Optional.empty(), noHidden.inText("~/.aws/credentials", Optional.empty()));
    }

    /** Round 6: {@code > /dev/null} in a shell line was refused as a path in {@code /dev}. */
    @Test
    void theInertDevicesAreNoPlaceAndTheRestOfDevIs() {
        DeniedPlaces places = new DeniedPlaces(
                HOME, List.of(new DeniedPlaces.Place(Path.of("/dev"), "/dev")), true, DeniedPlaces.Links.NONE);
        // round 8: a line that goes on after the device (`;`, `|`, `)`)
        for (String line : List.of(
                "make > /dev/null",
                "ls 2>/dev/null",
                "head -c 8 /dev/urandom",
                "dd if=/dev/zero",
                "ls >/dev/null; echo ok",
                "make 2>/dev/null|tail -1",
                "(make >/dev/null)",
                "cp /dev/null /tmp/empty.txt"))
            assertTrue(places.inText(line, java.util.Optional.empty()).isEmpty(), line);
        for (String line : List.of(
                "cat /dev/input/event3", "cat /dev/null/../input/event3", "ls /dev/shm", "ls >/dev/shm; echo ok"))
            assertEquals(java.util.Optional.of("/dev"), places.inText(line, java.util.Optional.empty()), line);
        // what follows the device is judged on its own
        assertEquals(
                Optional.of(CONFIG_KIND),
                PLACES.inText("ls >/dev/null; cat " + CONFIG + "/owner-token", Optional.empty()));
        assertEquals(
                Optional.of(CONFIG_KIND), PLACES.inText("cp /dev/null " + CONFIG + "/policy.json", Optional.empty()));
    }

    @Test
    void aNameRelativeToAFileChoosersFolderIsResolvedThere() {
        Optional<Path> home = Optional.of(HOME);
        assertEquals(Optional.of(CONFIG_KIND), PLACES.inText("deckhand-home/owner-token", home));
        assertEquals(Optional.of(CONFIG_KIND), PLACES.inText("Documents/../deckhand-home", home));
        assertEquals(Optional.of(CONFIG_KIND), PLACES.inText("owner-token", Optional.of(Path.of(CONFIG))));
        assertEquals(Optional.of(CONFIG_KIND), PLACES.inText("../deckhand-home/x", Optional.of(HOME.resolve("Music"))));
        assertEquals(Optional.of("~/.ssh"), PLACES.inText(".ssh", home));
        assertEquals(Optional.empty(), PLACES.inText("deckhand-home/owner-token", Optional.empty()));
        assertEquals(Optional.empty(), PLACES.inText("Documents/report.odt", home));
    }

    @Test
    void theControlsNameNothing() {
        for (String t : List.of(
                "/home/ann/Documents/report.txt",
                "~/deckhand-homes/x",
                "/home/ann/deckhand-home-2",
                "/home/ann/deckhand-home/../Documents/x",
                "~/.ssh/../Music/song.ogg",
                "https://example.com/home/ann/deckhand-home/owner-token",
                "http://example.com/.well-known/x",
                "deckhand-home/owner-token",
                "~ann/notes",
                "cost is 5/3 of $HOME-ish",
                "50% off /home/ann/Pictures",
                "file://host",
                "",
                "~",
                "/",
                "/tmp/linked/x")) {
            assertEquals(Optional.empty(), PLACES.inText(t, Optional.empty()), t);
        }
    }

    @Test
    void aTextOfThousandsOfPathStartsIsRefusedWholeNotWalked() {
        // each reading may cost a walk of its links; past the bound the text is refused instead
        assertEquals(Optional.of(DeniedPlaces.TOO_MANY), PLACES.inText("/a ".repeat(5_000), Optional.empty()));
        assertEquals(Optional.empty(), PLACES.inText("/a ".repeat(200), Optional.empty()));
        assertEquals(Optional.empty(), PLACES.inText("a / b ".repeat(100), Optional.empty()));
    }

    @Test
    void percentDecodingKeepsWhatIsNotAnEscape() {
        assertEquals("50% off", DeniedPlaces.percentDecoded("50% off"));
        assertEquals("/a b/é", DeniedPlaces.percentDecoded("/a%20b/%C3%A9"));
        assertEquals("%2", DeniedPlaces.percentDecoded("%2"));
        assertEquals(List.of("%252E", "%2E", "."), DeniedPlaces.decodings("%252E"));
    }

    @Test
    void namesPathSaysWhetherATextStartsAsAPath() {
        for (String t : List.of("/x", " ~/x", "~", "$HOME/x", "${HOME}", "file:///x", "FILE://h/x", "%2Fx")) {
            assertTrue(PLACES.namesPath(t), t);
        }
        for (String t : List.of("x/y", "https://a/b", "~ann", "$HOMEX", "", "word /x")) {
            assertFalse(PLACES.namesPath(t), t);
        }
    }

    @Test
    void aPlaceNamesItsKindNeverTheSpelling() {
        assertEquals(Optional.of("/proc"), PLACES.kindOf(Path.of("/proc/self/environ")));
        assertEquals(Optional.empty(), PLACES.kindOf(Path.of("/procfs/x")));
        assertEquals(Optional.empty(), DeniedPlaces.NONE.inText("/home/ann/.ssh/id_rsa", Optional.empty()));
    }
}
