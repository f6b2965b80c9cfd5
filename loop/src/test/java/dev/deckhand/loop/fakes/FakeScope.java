package dev.deckhand.loop.fakes;

import dev.deckhand.grant.CaptureMode;
import dev.deckhand.loop.GrantScope;

/** A grant scope whose revision a test can bump mid-run. */
public final class FakeScope implements GrantScope {

    public volatile long revision = 1;
    public volatile CaptureMode mode = CaptureMode.A11Y_ONLY;

    @Override
    public long windowId() {
        return RecordingDesktop.WINDOW;
    }

    @Override
    public long revision() {
        return revision;
    }

    @Override
    public CaptureMode captureMode() {
        return mode;
    }
}
