package dev.deckhand.security;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * HTTP/1.1 over a plain socket, so tests control every header (duplicates, none, look-alikes) and the request target byte for byte.
 *
 * <p>The HTTP-guard tests' client, not an MCP client: tests that speak MCP use McpAssured (dev.deckhand.mcp.Mcp).
 */
public final class RawHttp {

    private RawHttp() {}

    /** A whole response: status, header lines as sent, body as text. */
    public record Response(int status, List<String> headers, String body) {

        /** Every value of header {@code name} (any case). */
        public List<String> header(String name) {
            List<String> values = new ArrayList<>();
            String prefix = name.toLowerCase(Locale.ROOT) + ":";
            for (String h : headers) {
                if (h.toLowerCase(Locale.ROOT).startsWith(prefix))
                    values.add(h.substring(prefix.length()).trim());
            }
            return values;
        }
    }

    /** The {@code Host} header line for this server on {@code port}. */
    public static String host(int port) {
        return "Host: 127.0.0.1:" + port;
    }

    /** The {@code Authorization} header line with the token in {@code file} of the test config directory. */
    public static String bearer(String file) {
        return "Authorization: Bearer " + dev.deckhand.home.TestTokens.read(file);
    }

    /** Sends the request with exactly {@code headers} and returns the status code (the rest is not read). */
    public static int status(int port, String method, String path, List<String> headers, String body)
            throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            write(socket, method, path, headers, body);
            InputStream in = socket.getInputStream();
            return statusOf(readLine(in));
        }
    }

    /** Sends the request and reads the whole response (the server closes: {@code Connection: close}). */
    public static Response exchange(int port, String method, String path, List<String> headers, String body)
            throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            write(socket, method, path, headers, body);
            InputStream in = socket.getInputStream();
            int status = statusOf(readLine(in));
            List<String> lines = new ArrayList<>();
            for (String line; !(line = readLine(in)).isEmpty(); ) lines.add(line);
            ByteArrayOutputStream rest = new ByteArrayOutputStream();
            in.transferTo(rest);
            return new Response(status, lines, rest.toString(StandardCharsets.UTF_8));
        }
    }

    private static void write(Socket socket, String method, String path, List<String> headers, String body)
            throws IOException {
        StringBuilder req = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n");
        for (String h : headers) req.append(h).append("\r\n");
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        if (body != null) {
            req.append("Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n");
            req.append("Content-Length: ").append(bytes.length).append("\r\n");
        }
        req.append("Connection: close\r\n\r\n");
        OutputStream out = socket.getOutputStream();
        out.write(req.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.write(bytes);
        out.flush();
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != -1 && c != '\n') {
            if (c != '\r') line.append((char) c);
        }
        return line.toString();
    }

    private static int statusOf(String line) throws IOException {
        String[] parts = line.split(" ");
        if (parts.length < 2) throw new IOException("no status line: '" + line + "'");
        return Integer.parseInt(parts[1]);
    }
}
