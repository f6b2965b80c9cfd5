package dev.deckhand.model;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.deckhand.home.DeckhandHome;
import dev.deckhand.loop.json.JsonMappers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Keeps the binding in {@code model.json} and the API key apart in {@code model-api-key} (mode
 * 0600), both in the config directory. The key is only ever written from the person's request,
 * never generated, and never returned by anything but {@link #apiKey()}.
 *
 * <p>Changing the provider or the effective base URL without giving a new key forgets the stored
 * key, so a key meant for one endpoint is never sent to another.
 */
public final class ModelBindingStore {

    private static final Set<PosixFilePermission> SECRET_MODE = PosixFilePermissions.fromString("rw-------");

    private final Path dir;
    private final ObjectMapper json = JsonMappers.strict();

    public ModelBindingStore(Path dir) {
        this.dir = Objects.requireNonNull(dir, "dir");
    }

    public Path bindingFile() {
        return dir.resolve(DeckhandHome.MODEL_BINDING);
    }

    public Path keyFile() {
        return dir.resolve(DeckhandHome.MODEL_API_KEY);
    }

    /**
     * The bound model, or empty when none is bound.
     *
     * @throws IllegalStateException naming the file when {@code model.json} exists but is invalid
     */
    public synchronized Optional<ModelBinding> binding() {
        Path file = bindingFile();
        if (!Files.exists(file)) return Optional.empty();
        try {
            return Optional.of(json.readValue(file.toFile(), ModelBinding.class));
        } catch (IOException | IllegalArgumentException e) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) root = root.getCause();
            throw new IllegalStateException(file + " is not a valid model binding: " + root.getMessage(), e);
        }
    }

    /**
     * The per-application bindings ({@code model-apps.json}: {@code {"<WM_CLASS>": <binding>}}), as
     * stored; empty when the file is absent. Each entry is read when a run asks for it
     * ({@link #appBinding}), so one broken entry breaks only its own app.
     *
     * @throws IllegalStateException naming the file when it is not a JSON object of objects
     */
    public synchronized java.util.Map<String, com.fasterxml.jackson.databind.JsonNode> appBindings() {
        Path file = dir.resolve(DeckhandHome.MODEL_APPS);
        if (!Files.exists(file)) return java.util.Map.of();
        try {
            com.fasterxml.jackson.databind.JsonNode root = json.readTree(file.toFile());
            if (root == null || !root.isObject()) throw new IllegalStateException(file + " must be a JSON object");
            java.util.Map<String, com.fasterxml.jackson.databind.JsonNode> out = new java.util.TreeMap<>();
            root.properties().forEach(e -> out.put(e.getKey(), e.getValue()));
            return out;
        } catch (IOException e) {
            throw new IllegalStateException(file + " is not valid JSON: " + e.getMessage(), e);
        }
    }

    /**
     * The model bound for {@code app} (its WM_CLASS class, matched ignoring case: "Mousepad" and the
     * instance "mousepad" name one app), or empty when the app has none.
     *
     * @throws IllegalStateException naming the app when its entry is not a valid binding
     */
    public synchronized Optional<ModelBinding> appBinding(String app) {
        com.fasterxml.jackson.databind.JsonNode entry = null;
        for (var e : appBindings().entrySet()) {
            if (e.getKey().equalsIgnoreCase(app)) entry = e.getValue();
        }
        if (entry == null) return Optional.empty();
        try {
            return Optional.of(json.treeToValue(entry, ModelBinding.class));
        } catch (IOException | IllegalArgumentException e) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) root = root.getCause();
            throw new IllegalStateException(
                    "the model bound for app " + app + " is not a valid binding: " + root.getMessage(), e);
        }
    }

    /** Replaces the per-application bindings; an empty map removes the file. */
    public synchronized void saveAppBindings(java.util.Map<String, ModelBinding> apps) {
        Objects.requireNonNull(apps, "apps");
        try {
            if (apps.isEmpty()) {
                Files.deleteIfExists(dir.resolve(DeckhandHome.MODEL_APPS));
                return;
            }
            writeAtomically(
                    dir.resolve(DeckhandHome.MODEL_APPS),
                    json.writerWithDefaultPrettyPrinter().writeValueAsBytes(new java.util.TreeMap<>(apps)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the per-app model bindings in " + dir, e);
        }
    }

    /**
     * The person's price table ({@code model-prices.json}: {@code {"<modelId>": {"inputPerMTok": n,
     * "outputPerMTok": n}}}), or {@link PriceTable#DEFAULTS} when the file is absent.
     *
     * @throws IllegalStateException naming the file when it exists but is invalid
     */
    public synchronized PriceTable prices() {
        Path file = dir.resolve(DeckhandHome.MODEL_PRICES);
        if (!Files.exists(file)) return PriceTable.DEFAULTS;
        try {
            return new PriceTable(json.readValue(
                    file.toFile(),
                    new com.fasterxml.jackson.core.type.TypeReference<java.util.Map<String, PriceTable.Price>>() {}));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalStateException(file + " is not a valid price table: " + e.getMessage(), e);
        }
    }

    /** Saves the price table the person edited. */
    public synchronized void savePrices(PriceTable prices) {
        Objects.requireNonNull(prices, "prices");
        try {
            writeAtomically(
                    dir.resolve(DeckhandHome.MODEL_PRICES),
                    json.writerWithDefaultPrettyPrinter().writeValueAsBytes(prices.prices()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the price table in " + dir, e);
        }
    }

    /** The stored key, or empty. A key file readable by others is tightened to 0600 before use. */
    public synchronized Optional<ApiKey> apiKey() {
        Path file = keyFile();
        try {
            if (!Files.exists(file)) return Optional.empty();
            if (!Files.getPosixFilePermissions(file).equals(SECRET_MODE))
                Files.setPosixFilePermissions(file, SECRET_MODE);
            String value = dev.deckhand.home.SecretFileReads.read(file);
            return value.isEmpty() ? Optional.empty() : Optional.of(ApiKey.of(value));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /**
     * Saves the binding and, when {@code newKey} is non-null, the key. With a null {@code newKey} the
     * stored key is kept, unless the provider or the effective base URL changed: then it is forgotten.
     *
     * @return whether a key is stored afterwards
     */
    public synchronized boolean save(ModelBinding binding, ApiKey newKey) {
        Objects.requireNonNull(binding, "binding");
        Optional<ModelBinding> previous;
        try {
            previous = binding();
        } catch (IllegalStateException invalid) {
            previous = Optional.empty();
        }
        try {
            byte[] bytes = json.writerWithDefaultPrettyPrinter().writeValueAsBytes(binding);
            writeAtomically(bindingFile(), bytes);
            if (newKey != null) {
                writeAtomically(keyFile(), (newKey.reveal() + "\n").getBytes(StandardCharsets.US_ASCII));
            } else {
                boolean sameEndpoint = previous.isPresent()
                        && previous.get().provider() == binding.provider()
                        && previous.get().effectiveBaseUrl().equals(binding.effectiveBaseUrl());
                if (!sameEndpoint) Files.deleteIfExists(keyFile());
            }
            return Files.exists(keyFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the model binding in " + dir, e);
        }
    }

    /** Forgets the key (e.g. when switching to a local model). */
    public synchronized void clearApiKey() {
        try {
            Files.deleteIfExists(keyFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + keyFile(), e);
        }
    }

    /** Unbinds: removes the binding and the key. */
    public synchronized void clear() {
        try {
            Files.deleteIfExists(bindingFile());
            Files.deleteIfExists(keyFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clear the model binding in " + dir, e);
        }
    }

    private void writeAtomically(Path target, byte[] bytes) throws IOException {
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(
                dir, target.getFileName().toString(), ".tmp", PosixFilePermissions.asFileAttribute(SECRET_MODE));
        try {
            Files.write(tmp, bytes);
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
