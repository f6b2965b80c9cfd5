package dev.deckhand.loop;

/** Whether Stop was pressed (web page, shortcut, MCP cancel, revoke). Latching: once true, stays true. */
@FunctionalInterface
public interface StopSignal {

    boolean stopRequested();
}
