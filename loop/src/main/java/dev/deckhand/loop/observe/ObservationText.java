package dev.deckhand.loop.observe;

import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The compact observation the model reads: a header naming the window, then one short line per
 * useful node, {@code <indent><uid> <role abbreviation> "<name>" ="<value>" [flags]}.
 *
 * <ul>
 *   <li>Hidden (not showing) nodes and their subtrees are left out: nothing there can be acted on.
 *   <li>Unnamed, value-less, unfocused non-interactive nodes (containers: fillers, panels, ...) are
 *       left out, and their children are indented under the nearest written ancestor, so chains of
 *       containers collapse to nothing.
 *   <li>A non-interactive node that only repeats its written parent's name (the label inside a
 *       button) is left out.
 *   <li>A password field's value is never written (the {@link Node} record already forbids one).
 *   <li>Names are cut at {@value #MAX_NAME} characters and values at {@value #MAX_VALUE}.
 *   <li>With a {@link Frame} (the grant allows pixels), each element with bounds ends with
 *       {@code @x,y wxh} in the frame's coordinates — the capture's pixels when there is one, so a
 *       {@code click_at} and the tree share one coordinate space — and the header names the frame. Pixel
 *       surfaces ({@link Roles#PIXEL_SURFACES}: a canvas, a drawing area, a chart) are then written even unnamed:
 *       what they show is only in the capture, and their bounds say where it is.
 * </ul>
 *
 * <p>Token budget: tokens are <em>estimated</em> as characters / 4, rounded up (no tokenizer here).
 * When the lines do not fit, non-interactive lines are dropped first (from the end), then
 * interactive ones (from the end, never the focused one), and a last line says how many were left out.
 */
public final class ObservationText {

    public static final int MAX_NAME = 80;
    public static final int MAX_VALUE = 120;
    public static final int MIN_BUDGET = 32;

    /** A one-paragraph legend for the decider's prompt. */
    public static final String LEGEND =
            "Each line: <uid> <role> \"<name>\" =\"<value>\" [flags]; indentation shows nesting."
                    + " Roles: btn push button, tgl toggle button, chk check box, rad radio button, txt text, pwd password text,"
                    + " ent entry, mi menu item, li list item, lbl label, tab page tab, cell table cell. Flags: focused, disabled,"
                    + " readonly, editable, secret (password; value never shown). Act on elements by uid; uids are valid only for this observation's revision.";

    private static final Set<String> TEXT_ROLES = Set.of("text", "entry", "password text", "document text", "terminal");

    private ObservationText() {}

    /**
     * Where element bounds are written from: the window's screen geometry and the pixels per window pixel
     * ({@code scale}, 1 for window pixels; a capture's basis scale for its pixels).
     *
     * @param label how the header names the coordinates, e.g. {@code capture c1's pixels}
     */
    public record Frame(Geometry window, double scale, String label) {
        public Frame {
            Objects.requireNonNull(window, "window");
            Objects.requireNonNull(label, "label");
            if (!(scale > 0 && scale <= 1)) throw new IllegalArgumentException("scale must be in (0, 1], was " + scale);
        }

        String bounds(Geometry g) {
            return " @" + (int) Math.floor((g.x() - window.x()) * scale) + ","
                    + (int) Math.floor((g.y() - window.y()) * scale) + " " + Math.round(g.width() * scale) + "x"
                    + Math.round(g.height() * scale);
        }
    }

    /** Estimated tokens for {@code text}: characters / 4, rounded up. */
    public static int estimateTokens(CharSequence text) {
        return (text.length() + 3) / 4;
    }

    public static String render(ScopedTree tree, WindowInfo window, int tokenBudget) {
        return render(tree, window, tokenBudget, Optional.empty());
    }

    /** {@link #render(ScopedTree, WindowInfo, int)} with each element's bounds in {@code frame}'s coordinates. */
    public static String render(ScopedTree tree, WindowInfo window, int tokenBudget, Optional<Frame> frame) {
        Objects.requireNonNull(frame, "frame");
        Objects.requireNonNull(tree, "tree");
        Objects.requireNonNull(window, "window");
        if (tokenBudget < MIN_BUDGET) throw new IllegalArgumentException("tokenBudget must be at least " + MIN_BUDGET);
        String header = "window \"" + cut(window.title(), MAX_NAME) + "\" app " + window.app() + " revision "
                + tree.grantRevision()
                + (tree.partial() ? " (partial tree: the application did not answer for every element)" : "")
                + frame.map(f -> "; bounds @x,y wxh in " + f.label()).orElse("") + "\n";

        List<String> lines = new ArrayList<>();
        List<Integer> priority = new ArrayList<>(); // 0 focused, 1 interactive or valued, 2 other
        Deque<int[]> written = new ArrayDeque<>(); // {depth, index into lines} of written ancestors
        Deque<String> writtenNames = new ArrayDeque<>();
        int hiddenBelow = Integer.MAX_VALUE;
        for (Node n : tree.nodes()) {
            if (n.depth() <= hiddenBelow) hiddenBelow = Integer.MAX_VALUE;
            if (hiddenBelow != Integer.MAX_VALUE) continue;
            if (!n.showing()) {
                hiddenBelow = n.depth();
                continue;
            }
            while (!written.isEmpty() && written.peek()[0] >= n.depth()) {
                written.pop();
                writtenNames.pop();
            }
            boolean interactive = Roles.interactive(n.role());
            boolean secret = Roles.password(n.role());
            boolean hasValue = n.value() != null && !secret && !n.value().isEmpty();
            boolean named = !n.name().isBlank();
            boolean surface = frame.isPresent() && n.bounds() != null && Roles.pixelSurface(n.role());
            if (!interactive && !hasValue && !n.focused() && !surface) {
                if (!named) continue;
                if (!writtenNames.isEmpty() && n.name().equals(writtenNames.peek())) continue;
            }
            StringBuilder b = new StringBuilder();
            b.append(" ".repeat(written.size())).append(n.uid()).append(' ').append(Roles.abbreviate(n.role()));
            if (named) b.append(" \"").append(cut(n.name(), MAX_NAME)).append('"');
            if (hasValue) b.append(" =\"").append(cut(n.value(), MAX_VALUE)).append('"');
            List<String> flags = new ArrayList<>(3);
            if (n.focused()) flags.add("focused");
            if (!n.enabled()) flags.add("disabled");
            if (secret) flags.add("secret");
            boolean textRole = TEXT_ROLES.contains(n.role());
            if (textRole && !n.editable()) flags.add("readonly");
            if (!textRole && n.editable()) flags.add("editable");
            if (!flags.isEmpty()) b.append(" [").append(String.join(",", flags)).append(']');
            if (frame.isPresent() && n.bounds() != null) b.append(frame.get().bounds(n.bounds()));
            b.append('\n');
            written.push(new int[] {n.depth(), lines.size()});
            writtenNames.push(n.name());
            lines.add(b.toString());
            priority.add(n.focused() ? 0 : (interactive || hasValue || surface) ? 1 : 2);
        }
        return fit(header, lines, priority, tokenBudget);
    }

    private static String fit(String header, List<String> lines, List<Integer> priority, int tokenBudget) {
        long limit = (long) tokenBudget * 4;
        long total = header.length();
        for (String l : lines) total += l.length();
        boolean[] drop = new boolean[lines.size()];
        int dropped = 0;
        if (total > limit) {
            String footerTemplate = "… 00000 more elements left out (token budget)\n";
            limit -= footerTemplate.length();
            for (int p = 2; p >= 1 && total > limit; p--) {
                for (int i = lines.size() - 1; i >= 0 && total > limit; i--) {
                    if (!drop[i] && priority.get(i) == p) {
                        drop[i] = true;
                        dropped++;
                        total -= lines.get(i).length();
                    }
                }
            }
        }
        StringBuilder out = new StringBuilder(header);
        for (int i = 0; i < lines.size(); i++) if (!drop[i]) out.append(lines.get(i));
        if (dropped > 0) out.append("… ").append(dropped).append(" more elements left out (token budget)\n");
        return out.toString();
    }

    private static String cut(String s, int max) {
        String oneLine = s.replace('\n', ' ').replace('\r', ' ').replace('\t', ' ');
        return oneLine.length() <= max ? oneLine : oneLine.substring(0, max - 1) + "…";
    }
}
