package dev.deckhand.security;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** HTTP/1.1 over a plain socket, so tests control every header (duplicates, none, look-alikes). */
final class RawHttp {

    private RawHttp() {
    }

    /** Sends the request with exactly {@code headers} and returns the status code. */
    static int status(int port, String method, String path, List<String> headers, String body) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
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
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            int c;
            while ((c = in.read()) != -1 && c != '\n') line.append((char) c);
            String[] parts = line.toString().split(" ");
            if (parts.length < 2) throw new IOException("no status line: '" + line + "'");
            return Integer.parseInt(parts[1]);
        }
    }
}
