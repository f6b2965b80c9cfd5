package dev.deckhand.model;

import dev.deckhand.model.stub.AnthropicStub;
import dev.deckhand.model.stub.GeminiStub;
import dev.deckhand.model.stub.OllamaStub;
import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.model.stub.ProviderStub;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * Prints the host-side cost of one {@code decide()} (binding read, request build, JSON, loopback
 * HTTP, response mapping) against each local stub, so the model's own latency is excluded.
 * A program, not a test: {@code java -cp <test classpath> dev.deckhand.model.ModelClientBench [calls]}.
 */
public final class ModelClientBench {

    public static void main(String[] args) throws Exception {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        byte[] png = capture(1280, 800);
        for (ProviderStub stub : List.of(OpenAiStub.start(), AnthropicStub.start(), GeminiStub.start(), OllamaStub.start())) {
            try (stub) {
                Path home = Files.createTempDirectory("bench");
                ModelBindingStore store = new ModelBindingStore(home);
                store.save(stub.binding("bench"), ApiKey.of("sk-bench-0123456789abcdef"));
                BoundModelClient client = new BoundModelClient(store, new ProviderClient(Duration.ofSeconds(20)));
                ModelTurn text = ModelTurn.of(ProviderContractTest.SYSTEM, ProviderContractTest.USER, ProviderContractTest.SCHEMA);
                ModelTurn image = text.withImage(png);
                for (int i = 0; i < 50; i++) {
                    stub.enqueue(ProviderContractTest.ACTION);
                    client.decide(text);
                }
                long[] plain = new long[calls];
                long[] withImage = new long[calls];
                for (int i = 0; i < calls; i++) {
                    stub.enqueue(ProviderContractTest.ACTION).enqueue(ProviderContractTest.ACTION);
                    long t0 = System.nanoTime();
                    client.decide(text);
                    long t1 = System.nanoTime();
                    client.decide(image);
                    long t2 = System.nanoTime();
                    plain[i] = t1 - t0;
                    withImage[i] = t2 - t1;
                }
                System.out.printf("%-10s decide() median %.2f ms (p90 %.2f), with a %d-byte PNG median %.2f ms, n=%d%n",
                        stub.providerId(), median(plain), p90(plain), png.length, median(withImage), calls);
            }
        }
    }

    /** A capture-sized PNG with some structure (bands and text-like noise), like a downscaled window. */
    static byte[] capture(int w, int h) throws java.io.IOException {
        java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(w, h, java.awt.image.BufferedImage.TYPE_INT_RGB);
        java.util.Random random = new java.util.Random(42);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int band = (y / 24) % 2 == 0 ? 0xf0f0f0 : 0xffffff;
                img.setRGB(x, y, (x % 97 < 60 && y % 24 > 6 && y % 24 < 16 && random.nextInt(3) == 0) ? 0x202020 : band);
            }
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        javax.imageio.ImageIO.write(img, "png", out);
        return out.toByteArray();
    }

    private static double median(long[] ns) {
        long[] s = ns.clone();
        Arrays.sort(s);
        return s[s.length / 2] / 1e6;
    }

    private static double p90(long[] ns) {
        long[] s = ns.clone();
        Arrays.sort(s);
        return s[(int) (s.length * 0.9)] / 1e6;
    }
}
