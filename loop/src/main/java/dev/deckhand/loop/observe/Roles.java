package dev.deckhand.loop.observe;

import java.util.Map;
import java.util.Set;

/** What the observation needs to know about roles (AT-SPI role names, lower case). */
public final class Roles {

    private Roles() {}

    /** Roles a user acts on. */
    public static final Set<String> INTERACTIVE = Set.of(
            "push button",
            "toggle button",
            "check box",
            "radio button",
            "text",
            "password text",
            "entry",
            "combo box",
            "list item",
            "menu item",
            "check menu item",
            "radio menu item",
            "menu",
            "page tab",
            "link",
            "slider",
            "spin button",
            "tree item",
            "table cell",
            "scroll bar",
            "editbar",
            "terminal",
            "document text",
            "document web",
            "tool bar button",
            "button",
            "switch");

    /** Short forms used by the compact observation; other roles are written in full. */
    public static final Map<String, String> ABBREVIATIONS = Map.ofEntries(
            Map.entry("push button", "btn"),
            Map.entry("toggle button", "tgl"),
            Map.entry("check box", "chk"),
            Map.entry("radio button", "rad"),
            Map.entry("text", "txt"),
            Map.entry("password text", "pwd"),
            Map.entry("entry", "ent"),
            Map.entry("combo box", "combo"),
            Map.entry("list item", "li"),
            Map.entry("list", "list"),
            Map.entry("menu item", "mi"),
            Map.entry("check menu item", "cmi"),
            Map.entry("radio menu item", "rmi"),
            Map.entry("menu", "menu"),
            Map.entry("menu bar", "menubar"),
            Map.entry("page tab", "tab"),
            Map.entry("page tab list", "tabs"),
            Map.entry("label", "lbl"),
            Map.entry("link", "link"),
            Map.entry("heading", "h"),
            Map.entry("paragraph", "p"),
            Map.entry("table cell", "cell"),
            Map.entry("table", "table"),
            Map.entry("scroll bar", "sbar"),
            Map.entry("slider", "slider"),
            Map.entry("spin button", "spin"),
            Map.entry("tree item", "ti"),
            Map.entry("tool bar", "toolbar"),
            Map.entry("status bar", "status"),
            Map.entry("dialog", "dlg"),
            Map.entry("frame", "frame"),
            Map.entry("panel", "panel"),
            Map.entry("filler", "filler"),
            Map.entry("document text", "doc"),
            Map.entry("document web", "web"),
            Map.entry("image", "img"),
            Map.entry("separator", "sep"),
            Map.entry("tool tip", "tip"),
            Map.entry("alert", "alert"));

    /**
     * Roles whose content is drawn in pixels the tree does not describe (a drawing, a chart, a video, an embedded
     * remote screen): on a grant that allows pixels the observation writes them even unnamed, with their bounds,
     * so the model finds where a {@code click_at} goes.
     */
    public static final Set<String> PIXEL_SURFACES =
            Set.of("canvas", "drawing area", "chart", "animation", "video", "embedded");

    public static boolean pixelSurface(String role) {
        return PIXEL_SURFACES.contains(role);
    }

    public static boolean interactive(String role) {
        return INTERACTIVE.contains(role);
    }

    public static String abbreviate(String role) {
        return ABBREVIATIONS.getOrDefault(role, role);
    }

    public static boolean password(String role) {
        return role.contains("password");
    }
}
