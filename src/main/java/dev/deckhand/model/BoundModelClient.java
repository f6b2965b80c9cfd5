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
    public ModelReply reply(ModelTurn turn) {
        Objects.requireNonNull(turn, "turn");
        ModelBinding binding = bound();
        Optional<ApiKey> key = store.apiKey();
        if (binding.provider().keyRequired() && key.isEmpty()) {
            throw new RefusedException(Refusal.modelNotBound(
                    binding.providerId() + " is bound but no API key is stored; set one in settings"));
        }
        return provider.reply(binding, key.orElse(null), turn);
    }

    /**
     * The model for runs on {@code app} (WM_CLASS): the app's own binding when the person made one, else
     * the default one. Never a silent fallback: an app binding that is broken, or that needs a key the
     * store does not hold for its endpoint, refuses {@code MODEL_NOT_BOUND} naming the app. The app's
     * binding is read at every turn, like the default one.
     */
    @Override
    public ModelClient forApp(String app) {
        Objects.requireNonNull(app, "app");
        return turn -> {
            Objects.requireNonNull(turn, "turn");
            Optional<ModelBinding> own;
            try {
                own = store.appBinding(app);
            } catch (IllegalStateException invalid) {
                throw new RefusedException(Refusal.modelNotBound(invalid.getMessage()));
            }
            if (own.isEmpty()) return reply(turn);
            ModelBinding binding = own.get();
            ApiKey key = sharedKey(binding).orElse(null);
            if (binding.provider().keyRequired() && key == null) {
                throw new RefusedException(Refusal.modelNotBound(
                        "the model bound for app " + app + " (" + binding.providerId() + " " + binding.modelId()
                                + ") needs an API key, and the stored key belongs to another endpoint"));
            }
            return provider.reply(binding, key, turn);
        };
    }

    /** The stored key, only for the endpoint it was stored for (the default binding's provider and base URL). */
    private Optional<ApiKey> sharedKey(ModelBinding binding) {
        Optional<ModelBinding> main;
        try {
            main = store.binding();
        } catch (IllegalStateException invalid) {
            return Optional.empty();
        }
        boolean same = main.isPresent()
                && main.get().provider() == binding.provider()
                && main.get().effectiveBaseUrl().equals(binding.effectiveBaseUrl());
        return same ? store.apiKey() : Optional.empty();
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
            return store.binding()
                    .orElseThrow(() -> new RefusedException(
                            Refusal.modelNotBound("no model is bound; bind one in settings (PUT /api/model)")));
        } catch (IllegalStateException invalid) {
            throw new RefusedException(Refusal.modelNotBound(invalid.getMessage()));
        }
    }
}
