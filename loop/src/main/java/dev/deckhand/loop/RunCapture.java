package dev.deckhand.loop;

import dev.deckhand.loop.desktop.Capture;
import java.util.Objects;

/**
 * A capture taken in this run, with the id the model names as {@code basis} in {@code click_at}.
 */
public record RunCapture(String id, Capture capture) {

    public RunCapture {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(capture, "capture");
    }
}
