package dev.deckhand.security;

import java.util.Optional;

/**
 * The one spelling of a request path Deckhand accepts (docs/design.md#owner-boundary). Every route Deckhand serves is
 * named by unreserved characters alone ({@code A-Z a-z 0-9 - . _ ~}) between single slashes, so an
 * allow-list of those characters is the whole grammar: a path that passes is its own normal form
 * (nothing to decode, no dot segment to remove, no empty segment to collapse), and the router can
 * only act on the path {@link HttpGuard} decided on.
 *
 * <p>Refused, each with its own reason: anything not starting with {@code /} (absolute-form and
 * {@code *} request targets included); any {@code %} (Deckhand's paths need no percent-encoding, so
 * none is decoded anywhere: encoded letters, dots, {@code /} or {@code \}, double encodings); {@code ;}
 * parameters; backslashes; any other character (spaces, controls, non-ASCII); empty segments
 * ({@code //}, a trailing {@code /} except the root itself); {@code .} and {@code ..} segments.
 */
final class CanonicalPath {

    /** Longer paths are refused outright; Deckhand's longest route is under 60 characters. */
    static final int MAX_LENGTH = 1024;

    private CanonicalPath() {}

    /** Why {@code path} is not canonical, or empty when it is. */
    static Optional<String> refusal(String path) {
        if (path == null || path.isEmpty() || path.charAt(0) != '/') {
            return Optional.of("the request target must be a path starting with '/'");
        }
        if (path.length() > MAX_LENGTH) return Optional.of("the path is longer than " + MAX_LENGTH + " characters");
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (unreserved(c) || c == '/') continue;
            if (c == '%')
                return Optional.of("percent-encoding in the path is not accepted (Deckhand's paths need none)");
            if (c == ';') return Optional.of("';' parameters in the path are not accepted");
            if (c == '\\') return Optional.of("a backslash in the path is not accepted");
            return Optional.of("the character " + describe(c) + " is not accepted in a path");
        }
        if (path.equals("/")) return Optional.empty();
        String[] segments = path.substring(1).split("/", -1);
        for (String s : segments) {
            if (s.isEmpty()) return Optional.of("empty path segments ('//' or a trailing '/') are not accepted");
            if (s.equals(".") || s.equals("..")) return Optional.of("'.' and '..' path segments are not accepted");
        }
        return Optional.empty();
    }

    private static boolean unreserved(char c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '-'
                || c == '.'
                || c == '_'
                || c == '~';
    }

    private static String describe(char c) {
        return c >= 0x21 && c < 0x7f ? "'" + c + "'" : String.format("U+%04X", (int) c);
    }
}
