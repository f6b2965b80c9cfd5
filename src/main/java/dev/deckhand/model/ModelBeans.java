package dev.deckhand.model;

import dev.deckhand.home.DeckhandHome;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The thin CDI layer: the store lives in the config directory; one provider client per server. */
@Singleton
public class ModelBeans {

    @Produces
    @Singleton
    ModelBindingStore store(DeckhandHome home) {
        return new ModelBindingStore(home.dir());
    }

    @Produces
    @Singleton
    ProviderClient providerClient(
            @ConfigProperty(name = "deckhand.model.timeout", defaultValue = "PT60S") Duration timeout) {
        return new ProviderClient(timeout);
    }

    /** Injectable as {@link ModelClient} (the loop's port) or as {@link BoundModelClient} (test connection). */
    @Produces
    @Singleton
    BoundModelClient modelClient(ModelBindingStore store, ProviderClient provider) {
        return new BoundModelClient(store, provider);
    }
}
