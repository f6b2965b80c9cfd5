package dev.deckhand.boot;

import dev.deckhand.home.DeckhandConfig;
import dev.deckhand.home.DeckhandHome;
import dev.deckhand.home.PersonsTerminal;
import dev.deckhand.home.ServerAddress;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/** Tells the person, at start, where everything is and how to register Deckhand in an MCP client. */
@ApplicationScoped
public class StartupBanner {

    /** The system property {@code deckhand run} sets (see {@link DeckhandConfig#quietBanner()}). */
    static final String QUIET = "deckhand.quiet-banner";

    private static final Logger LOG = Logger.getLogger(StartupBanner.class);

    @Inject
    DeckhandHome home;

    @Inject
    ServerAddress address;

    @Inject
    dev.deckhand.security.OwnerSessions sessions;

    @Inject
    DeckhandConfig config;

    void announce(@Observes StartupEvent event) {
        if (config.quietBanner()) return;
        String tokenFile = home.file(DeckhandHome.MCP_TOKEN).toString();
        LOG.infof(
                """
                Deckhand is ready.
                  MCP endpoint (Streamable HTTP): %s
                    header: Authorization: Bearer $(cat %s)
                  MCP over stdio:                 deckhand stdio
                  Web page (grants, model, audit): %s
                    %s
                  Config directory:               %s
                  Claude Code: claude mcp add --transport http deckhand %s --header "Authorization: Bearer $(cat %s)"
                """,
                address.mcpUrl(),
                tokenFile,
                address.pageUrl(),
                signInLogged(),
                home.dir(),
                address.mcpUrl(),
                tokenFile);
        // The code is a secret: it goes to the person's terminal only, never through the log (whose filter
        // would withhold it, and whose file or collector would keep it) nor to standard error, which may be a
        // file too.
        if (!config.stdio() && !PersonsTerminal.tell(signIn())) {
            LOG.info("sign in: no terminal to print a one-time link on; run 'deckhand signin' in yours");
        }
    }

    /** What the log says of signing in: never the code. */
    private String signInLogged() {
        return config.stdio()
                ? signIn()
                : "sign in: a one-time link goes to this process's terminal only, never to its output or log";
    }

    /**
     * The sign-in line. Under {@code deckhand stdio} standard error is the MCP client's log, so it names
     * the command that prints a link to the person's own terminal instead of a code.
     */
    String signIn() {
        if (config.stdio()) return "sign in: run 'deckhand signin' in your terminal (it prints a one-time link)";
        return "sign in once with: " + address.baseUrl() + "/signin?code=" + sessions.issueCode()
                + " (or run 'deckhand signin' for a fresh link)";
    }
}
