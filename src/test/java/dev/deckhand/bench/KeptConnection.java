package dev.deckhand.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 connection to the server, kept open across requests, as an MCP client holds its connection:
 * the bench measures the server, not a client library's own per-request cost (the JDK {@code HttpClient}
 * adds 6-16 ms a request on this machine beside the bench's apps, docs/performance.md). Reads bodies sent
 * with a {@code Content-Length} or chunked; one request at a time; reconnects when the server closed it.
 */
final class KeptConnection implements AutoCloseable {

    private final int port;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    KeptConnection(int port) {
        this.port = port;
    }

    /** A response: status, headers by lower-case name, body as UTF-8. */
    record Response(int status, Map<String, String> headers, String body) {
        String header(String lowerCaseName) {
            return headers.get(lowerCaseName);
        }
    }

    Response post(String path, Map<String, String> headers, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder("POST ")
                .append(path)
                .append(" HTTP/1.1\r\nHost: 127.0.0.1:")
                .append(port)
                .append("\r\nConnection: keep-alive\r\nContent-Length: ")
                .append(bytes.length)
                .append("\r\n");
        headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
        head.append("\r\n");
        if (socket == null) connect();
        Response r = exchange(head.toString().getBytes(StandardCharsets.ISO_8859_1), bytes);
        if (r != null) return r;
        // the server closed the kept connection between requests, before answering: it did not take this one
        close();
        connect();
        r = exchange(head.toString().getBytes(StandardCharsets.ISO_8859_1), bytes);
        if (r == null) throw new IOException("the server closed a new connection without answering");
        return r;
    }

    private void connect() throws IOException {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(120_000);
        in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        out = socket.getOutputStream();
    }

    /** The response, or null when the connection was found closed before any of it came. */
    private Response exchange(byte[] head, byte[] body) throws IOException {
        byte[] request = new byte[head.length + body.length];
        System.arraycopy(head, 0, request, 0, head.length);
        System.arraycopy(body, 0, request, head.length, body.length);
        try {
            out.write(request);
            out.flush();
        } catch (IOException closed) {
            return null;
        }
        String status = line();
        if (status == null) return null;
        String[] parts = status.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1."))
            throw new IOException("not an HTTP response: " + status);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String h = line(); h != null && !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            if (colon > 0)
                headers.put(
                        h.substring(0, colon).strip().toLowerCase(Locale.ROOT),
                        h.substring(colon + 1).strip());
        }
        byte[] payload;
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            while (true) {
                String size = line();
                if (size == null) throw new IOException("the connection ended inside a chunked body");
                int n = Integer.parseInt(size.split(";", 2)[0].strip(), 16);
                if (n == 0) {
                    while (true) { // trailers, up to the empty line
                        String t = line();
                        if (t == null || t.isEmpty()) break;
                    }
                    break;
                }
                b.write(in.readNBytes(n));
                line(); // the CRLF after the chunk
            }
            payload = b.toByteArray();
        } else {
            String length = headers.get("content-length");
            payload = length == null ? new byte[0] : in.readNBytes(Integer.parseInt(length));
        }
        if ("close".equalsIgnoreCase(headers.get("connection"))) close();
        return new Response(Integer.parseInt(parts[1]), headers, new String(payload, StandardCharsets.UTF_8));
    }

    /** One CRLF-ended line in ISO-8859-1, without its end; null at the end of the stream. */
    private String line() throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                int n = b.length();
                if (n > 0 && b.charAt(n - 1) == '\r') b.setLength(n - 1);
                return b.toString();
            }
            b.append((char) c);
        }
        return b.length() == 0 ? null : b.toString();
    }

    @Override
    public void close() throws IOException {
        if (socket != null) socket.close();
        socket = null;
    }
}
