package dev.deckhand.model;

import dev.deckhand.model.stub.AnthropicStub;
import dev.deckhand.model.stub.GeminiStub;
import dev.deckhand.model.stub.OllamaStub;
import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.model.stub.ProviderStub;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The host-side cost of one {@code decide()} (binding read, request build, JSON, loopback HTTP, response
 * mapping) against each local stub, so the model's own latency is excluded: a JMH benchmark, not a test
 * ({@code scripts/bench-micro.sh ModelClientBench}). SampleTime, so JMH prints the median (p0.50) and p0.90.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Djava.awt.headless=true")
public class ModelClientBench {

    @Param({"openai", "anthropic", "gemini", "ollama"})
    public String provider;

    private ProviderStub stub;
    private BoundModelClient client;
    private ModelTurn text;
    private ModelTurn image;

    @Setup
    public void start() throws Exception {
        stub = switch (provider) {
            case "openai" -> OpenAiStub.start();
            case "anthropic" -> AnthropicStub.start();
            case "gemini" -> GeminiStub.start();
            case "ollama" -> OllamaStub.start();
            default -> throw new IllegalArgumentException(provider);
        };
        Path home = Files.createTempDirectory("bench");
        ModelBindingStore store = new ModelBindingStore(home);
        store.save(stub.binding("bench"), ApiKey.of("sk-bench-0123456789abcdef"));
        client = new BoundModelClient(store, new ProviderClient(Duration.ofSeconds(20)));
        text = ModelTurn.of(ProviderContractTest.SYSTEM, ProviderContractTest.USER, ProviderContractTest.SCHEMA);
        image = text.withImage(capture(1280, 800));
    }

    @TearDown
    public void stop() {
        stub.close();
    }

    /** A turn of text only. */
    @Benchmark
    public Object decide() throws Exception {
        stub.enqueue(ProviderContractTest.ACTION);
        return client.decide(text);
    }

    /** A turn with a capture-sized (1280x800) PNG. */
    @Benchmark
    public Object decideWithImage() throws Exception {
        stub.enqueue(ProviderContractTest.ACTION);
        return client.decide(image);
    }

    /** A capture-sized PNG with some structure (bands and text-like noise), like a downscaled window. */
    static byte[] capture(int w, int h) throws java.io.IOException {
        java.awt.image.BufferedImage img =
                new java.awt.image.BufferedImage(w, h, java.awt.image.BufferedImage.TYPE_INT_RGB);
        java.util.Random random = new java.util.Random(42);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int band = (y / 24) % 2 == 0 ? 0xf0f0f0 : 0xffffff;
                img.setRGB(
                        x, y, (x % 97 < 60 && y % 24 > 6 && y % 24 < 16 && random.nextInt(3) == 0) ? 0x202020 : band);
            }
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        javax.imageio.ImageIO.write(img, "png", out);
        return out.toByteArray();
    }
}
