package dev.deckhand.home;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.ConfigProvider;

/** Where this server listens, for messages that send the person to the web page. */
@ApplicationScoped
public class ServerAddress {

    /** The port actually bound (Quarkus records a random port back into its config). */
    public int port() {
        var config = ConfigProvider.getConfig();
        return config.getOptionalValue("quarkus.http.test-port", Integer.class)
                .filter(p -> p > 0 && isTestProfile())
                .orElseGet(() -> config.getOptionalValue("quarkus.http.port", Integer.class)
                        .orElse(8377));
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    public String pageUrl() {
        return baseUrl() + "/";
    }

    public String mcpUrl() {
        return baseUrl() + "/mcp";
    }

    private static boolean isTestProfile() {
        return "test"
                .equals(io.quarkus.runtime.configuration.ConfigUtils.getProfiles()
                        .get(0));
    }
}
