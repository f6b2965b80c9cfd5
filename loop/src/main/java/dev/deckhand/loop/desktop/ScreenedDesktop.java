package dev.deckhand.loop.desktop;

import dev.deckhand.grant.Chord;
import dev.deckhand.grant.OwnSecrets;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A {@link Desktop} ({@link #desktop()}) that screens what it reads for Deckhand's own secrets before anyone sees it: every
 * tree (each node's name and value, and the texts of all nodes joined in document order and again in reading
 * order, so a secret split across sibling nodes is found) and the titles of the windows in scope. A secret
 * found latches {@code SECRET_ON_SCREEN}: the read that found it throws it, and so does every later read
 * and every input, so nothing more is shown to the model or done in the app. Pixels cannot be screened: a
 * secret shown only as pixels passes (docs/security.md says so).
 *
 * <p>It implements the parts whose calls it screens or refuses once fired ({@link Display}, {@link Trees},
 * {@link Input}, {@link Captures}), each method by hand, so a method added to one of them does not compile here
 * until it says how it is screened; the facts and the showing are the real desktop's.
 */
public final class ScreenedDesktop implements Display, Trees, Input, Captures {

    private final Desktop real;
    private final Supplier<OwnSecrets> secrets;
    private final Predicate<WindowInfo> inScope;
    private final SecretFileWindow files;
    private final AtomicReference<Refusal> fired = new AtomicReference<>();

    /**
     * @param secrets read at each screening (a secret rotated or a sign-in code issued during a run counts)
     * @param inScope the windows whose titles are screened (the granted window, its dialogs, its app)
     */
    public ScreenedDesktop(Desktop real, Supplier<OwnSecrets> secrets, Predicate<WindowInfo> inScope) {
        this(real, secrets, inScope, SecretFileWindow.NONE);
    }

    /**
     * @param files opened by every input and closed by the next read, which then fires if a process other than
     *     Deckhand opened one of its secret files in between: what such a process shows of it (reversed, cut up
     *     — no matcher finds it) is never shown to the model
     */
    public ScreenedDesktop(
            Desktop real, Supplier<OwnSecrets> secrets, Predicate<WindowInfo> inScope, SecretFileWindow files) {
        this.real = Objects.requireNonNull(real, "real");
        this.secrets = Objects.requireNonNull(secrets, "secrets");
        this.inScope = Objects.requireNonNull(inScope, "inScope");
        this.files = Objects.requireNonNull(files, "files");
        this.desktop = new Desktop(this, this, this, this, real.facts(), real.showing());
    }

    private final Desktop desktop;

    /** The screened desktop: its reads and inputs through this, its facts and showing the real desktop's. */
    public Desktop desktop() {
        return desktop;
    }

    /** The refusal once a secret was seen, or opened by another process after an input. */
    public Optional<Refusal> fired() {
        if (fired.get() == null) files.peek().ifPresent(this::opened);
        return Optional.ofNullable(fired.get());
    }

    private void opened(String which) {
        fired.compareAndSet(
                null,
                Refusal.secretOnScreen("a process other than Deckhand opened Deckhand's " + which
                        + " after an input of the run; nothing more is shown to the model or done in the app"));
    }

    private void open() {
        Refusal r = fired.get();
        if (r != null) throw new RefusedException(r);
    }

    /** Before an input: refused once fired, else the input opens the secret-file window. */
    private void act() {
        open();
        files.acted();
    }

    /** After a read: the window closes, and fires if a secret file was opened in it. */
    private void read() {
        files.closed().ifPresent(this::opened);
        open();
    }

    private void fire(String which, String where) {
        fired.compareAndSet(
                null,
                Refusal.secretOnScreen("Deckhand's " + which + " was read in " + where
                        + "; nothing more is shown to the model or done in the app"));
        open();
    }

    private ScopedTree screened(ScopedTree tree) {
        OwnSecrets s = secrets.get();
        if (s.isEmpty()) return tree;
        List<String> texts = new ArrayList<>(tree.nodes().size() * 2);
        for (Node n : tree.nodes()) {
            texts.add(n.name());
            if (n.value() != null) texts.add(n.value());
        }
        Optional<String> which = s.which(texts);
        if (which.isEmpty()) {
            List<Node> reading = new ArrayList<>(tree.nodes());
            reading.removeIf(n -> n.bounds() == null);
            reading.sort(Comparator.comparingInt((Node n) -> n.bounds().y())
                    .thenComparingInt(n -> n.bounds().x()));
            List<String> read = new ArrayList<>(reading.size() * 2);
            for (Node n : reading) {
                read.add(n.name());
                if (n.value() != null) read.add(n.value());
            }
            which = s.which(read);
        }
        if (which.isPresent()) fire(which.get(), "the granted window's accessibility tree");
        return tree;
    }

    @Override
    public List<WindowInfo> windows() {
        open();
        List<WindowInfo> all = real.display().windows();
        read();
        OwnSecrets s = secrets.get();
        for (WindowInfo w : all) {
            if (!inScope.test(w)) continue;
            Optional<String> which = s.which(w.title());
            if (which.isPresent()) fire(which.get(), "the title of a window in scope");
        }
        return all;
    }

    @Override
    public ScopedTree snapshot(long windowId, long grantRevision) {
        open();
        ScopedTree tree = real.trees().snapshot(windowId, grantRevision);
        read();
        return screened(tree);
    }

    @Override
    public ScopedTree latestSnapshot(long windowId, long grantRevision) {
        open();
        ScopedTree tree = real.trees().latestSnapshot(windowId, grantRevision);
        read();
        return screened(tree);
    }

    @Override
    public void click(String uid) {
        act();
        real.input().click(uid);
    }

    @Override
    public void setText(String uid, String text) {
        act();
        real.input().setText(uid, text);
    }

    @Override
    public void focus(String uid) {
        act();
        real.input().focus(uid);
    }

    @Override
    public void scroll(String uid, String direction, int amount) {
        act();
        real.input().scroll(uid, direction, amount);
    }

    @Override
    public void select(String uid, String option) {
        act();
        real.input().select(uid, option);
    }

    @Override
    public void key(long windowId, Chord chord) {
        act();
        real.input().key(windowId, chord);
    }

    @Override
    public void type(long windowId, String text, DeliveryGate gate) {
        act();
        real.input().type(windowId, text, gate);
    }

    /** The menu items' names are window text: screened as a tree's names are. */
    @Override
    public dev.deckhand.grant.Accelerators accelerators(long windowId) {
        open();
        dev.deckhand.grant.Accelerators a = real.trees().accelerators(windowId);
        read();
        OwnSecrets s = secrets.get();
        if (!s.isEmpty()) {
            List<String> names = new ArrayList<>();
            a.items().values().forEach(l -> l.forEach(e -> names.add(e.name())));
            s.which(names).ifPresent(w -> fire(w, "the granted window's menu items"));
        }
        return a;
    }

    @Override
    public long activeWindow() {
        return real.display().activeWindow();
    }

    @Override
    public boolean privateDesktop() {
        return real.display().privateDesktop();
    }

    @Override
    public boolean syntheticInput(long windowId) {
        return real.display().syntheticInput(windowId);
    }

    /** Not screened: a count and the kind of change, no text read from the screen. */
    @Override
    public KeyboardChanges keyboardChanges() {
        return real.display().keyboardChanges();
    }

    @Override
    public void clickAt(int x, int y, Basis basis) {
        act();
        real.input().clickAt(x, y, basis);
    }

    /** Not screened: sends an Escape to the app's own menu and reads no text. */
    @Override
    public MenuClosing closeOwnMenus(long windowId) {
        return real.display().closeOwnMenus(windowId);
    }

    @Override
    public Capture capture(long windowId, long grantRevision, int longEdge) {
        open();
        Capture c = real.captures().capture(windowId, grantRevision, longEdge);
        read();
        return c;
    }

    @Override
    public boolean basisValid(Basis basis) {
        return real.captures().basisValid(basis);
    }

    @Override
    public boolean starting(long windowId) {
        return real.trees().starting(windowId);
    }

    @Override
    public boolean awaitRegistered(long windowId, Duration max) {
        return real.trees().awaitRegistered(windowId, max);
    }

    @Override
    public void settle(Duration max) {
        real.trees().settle(max);
    }

    @Override
    public void settle(Duration max, Set<Landing> landings) {
        real.trees().settle(max, landings);
    }
}
