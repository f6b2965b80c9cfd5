package dev.deckhand.doctor;

import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.owner.GrantService;
import dev.deckhand.platform.Desktops;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;

/**
 * Toolkit accessibility per running app: does each app's window answer with an element tree? One
 * line per app in {@code detail}. While a grant is active nothing is walked: a snapshot names a grant
 * revision, and walking under another revision would drop the running grant's element uids.
 */
@ApplicationScoped
public class ToolkitA11yCheck implements DoctorCheck {

    static final String ID = "toolkit-a11y";
    static final String TITLE = "Toolkit accessibility per running app";

    @Inject
    Desktops desktops;

    @Inject
    GrantService grants;

    @Override
    public Result check() {
        if (grants.broker().active().isPresent()) {
            return Result.ok(
                    ID,
                    TITLE,
                    "not probed while a grant is active (probing would disturb the run); check again after it ends");
        }
        List<WindowInfo> apps;
        try {
            apps = AppsProbe.oneWindowPerApp(desktops.desktop().display().windows());
        } catch (RefusedException e) {
            return Result.failed(ID, TITLE, e.code() + ": " + e.refusal().detail(), "fix the display check first");
        }
        if (apps.isEmpty()) return Result.ok(ID, TITLE, "no app window is open to check");
        List<String> lines = new ArrayList<>();
        List<String> fixes = new ArrayList<>();
        for (WindowInfo w : apps) {
            Toolkit toolkit = Toolkit.of(w.pid());
            String line = AppsProbe.name(w) + ", " + toolkit.label() + ": ";
            try {
                ScopedTree tree = desktops.desktop().trees().snapshot(w.id(), 0);
                if (tree.nodes().size() > 1) {
                    lines.add(line + "answers (" + tree.nodes().size() + " elements"
                            + (tree.partial() ? ", partial" : "") + ")");
                    continue;
                }
                lines.add(line + "exposes no elements");
            } catch (RefusedException e) {
                lines.add(line + e.code() + " (" + e.refusal().detail() + ")");
            }
            fixes.add(w.app() + ": " + toolkit.enableA11y());
        }
        String detail = String.join("\n", lines);
        return fixes.isEmpty()
                ? Result.ok(ID, TITLE, detail)
                : Result.failed(ID, TITLE, detail, String.join("\n", fixes));
    }
}
