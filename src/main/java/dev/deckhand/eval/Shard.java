package dev.deckhand.eval;

import java.util.ArrayList;
import java.util.List;

/**
 * One deterministic slice of a suite (docs/design.md#task-format): {@code --shard I/N}, 0-based like a Kubernetes Indexed
 * Job's completion index, runs the tasks whose position in id order is {@code I} modulo {@code N}. The N
 * shards of one suite are disjoint and together hold every task once; the positions are those of the tasks
 * after {@code --only}, before {@code --repeat}.
 */
public record Shard(int index, int count) {

    /** More shards than this is a typo, not a fleet. */
    public static final int MAX_COUNT = 10_000;

    public Shard {
        if (count < 1 || count > MAX_COUNT)
            throw new IllegalArgumentException("--shard's N must be in 1.." + MAX_COUNT + ", was " + count);
        if (index < 0 || index >= count) {
            throw new IllegalArgumentException("--shard's I must be in 0.." + (count - 1) + " (0-based), was " + index);
        }
    }

    /**
     * Reads {@code I/N}: two decimal numbers, nothing else.
     *
     * @throws IllegalArgumentException naming {@code --shard} and what is wrong
     */
    public static Shard parse(String spec) {
        int slash = spec.indexOf('/');
        if (slash < 0 || !digits(spec.substring(0, slash)) || !digits(spec.substring(slash + 1))) {
            throw new IllegalArgumentException("--shard needs I/N, e.g. 0/3 (0-based), was '" + spec + "'");
        }
        try {
            return new Shard(Integer.parseInt(spec.substring(0, slash)), Integer.parseInt(spec.substring(slash + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--shard's numbers are too large: '" + spec + "'");
        }
    }

    private static boolean digits(String s) {
        return !s.isEmpty() && s.length() <= 9 && s.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    /** The elements of {@code inIdOrder} at the positions this shard runs. */
    public <T> List<T> of(List<T> inIdOrder) {
        List<T> out = new ArrayList<>();
        for (int i = index; i < inIdOrder.size(); i += count) out.add(inIdOrder.get(i));
        return out;
    }

    /** Whether the task at {@code position} (0-based, in id order) belongs to this shard. */
    public boolean holds(int position) {
        return position % count == index;
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
