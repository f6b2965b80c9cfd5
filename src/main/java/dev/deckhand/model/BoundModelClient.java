package dev.deckhand.model;

import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link ModelClient} the loop uses: reads the person's binding at every turn (so a change in
 * settings applies at the next step) and asks exactly that model. No binding refuses with
 * {@code MODEL_NOT_BOUND}; there is no fallback model.
 */
public final class BoundModelClient implements ModelClient {

    private final ModelBindingStore store;
    private final ProviderClient provider;

    public BoundModelClient(ModelBindingStore store, ProviderClient provider) {
        this.store = Objects.requireNonNull(store, "store");
        this.provider = Objects.requireNonNull(provider, "provider");
    }

    @Override
    public String decide(ModelTurn turn) {
        Objects.requireNonNull(turn, "turn");
        ModelBinding binding = bound();
        Optional<ApiKey> key = store.apiKey();
        if (binding.provider().keyRequired() && key.isEmpty()) {
            throw new RefusedException(Refusal.modelNotBound(binding.providerId() + " is bound but no API key is stored; set one in settings"));
        }
        return provider.decide(binding, key.orElse(null), turn);
    }

    /** Tests the stored binding with one small real call; no binding is a failed check, not an exception. */
    public ConnectionCheck testConnection() {
        ModelBinding binding;
        try {
            binding = bound();
        } catch (RefusedException e) {
            return ConnectionCheck.failed(e.refusal().detail());
        }
        return provider.testConnection(binding, store.apiKey().orElse(null));
    }

    private ModelBinding bound() {
        try {
            return store.binding().orElseThrow(() -> new RefusedException(Refusal.modelNotBound("no model is bound; bind one in settings (PUT /api/model)")));
        } catch (IllegalStateException invalid) {
            throw new RefusedException(Refusal.modelNotBound(invalid.getMessage()));
        }
    }
}
