package dev.deckhand.platform.atspi;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/** One HTML page served on the loopback address at every path, for a browser the tests start. */
public final class PageServer implements AutoCloseable {

    private final HttpServer server;

    private PageServer(HttpServer server) {
        this.server = server;
    }

    /** Serves {@code html} until closed. */
    public static PageServer serve(String html) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        byte[] page = html.getBytes(StandardCharsets.UTF_8);
        server.createContext("/", ex -> {
            ex.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
            ex.sendResponseHeaders(200, page.length);
            ex.getResponseBody().write(page);
            ex.close();
        });
        server.start();
        return new PageServer(server);
    }

    /** The page's address under {@code path} ({@code /page.html}), on host {@code localhost}. */
    public String url(String path) {
        return "http://localhost:" + server.getAddress().getPort() + path;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
