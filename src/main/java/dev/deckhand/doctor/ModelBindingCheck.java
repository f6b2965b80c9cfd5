package dev.deckhand.doctor;

import dev.deckhand.model.BoundModelClient;
import dev.deckhand.model.ConnectionCheck;
import dev.deckhand.model.ModelBinding;
import dev.deckhand.model.ModelBindingStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/** The model binding is present and reachable: one small real call, the provider's error verbatim. */
@ApplicationScoped
public class ModelBindingCheck implements DoctorCheck {

    static final String ID = "model";
    static final String TITLE = "Model binding reachable";

    @Inject
    ModelBindingStore store;

    @Inject
    BoundModelClient client;

    @Override
    public Result check() {
        Optional<ModelBinding> binding;
        try {
            binding = store.binding();
        } catch (IllegalStateException invalid) {
            return Result.failed(ID, TITLE, invalid.getMessage(), "bind the model again in the Model section");
        }
        if (binding.isEmpty()) {
            return Result.failed(ID, TITLE, "no model is bound", "choose a provider and model in the Model section");
        }
        String what = binding.get().providerId() + " / " + binding.get().modelId() + " at "
                + binding.get().effectiveBaseUrl();
        ConnectionCheck check = client.testConnection();
        return check.ok()
                ? Result.ok(ID, TITLE, what + " answered")
                : Result.failed(
                        ID,
                        TITLE,
                        what + ": " + check.error(),
                        "check the base URL, model id and API key in the Model section (the message above is the provider's)");
    }
}
