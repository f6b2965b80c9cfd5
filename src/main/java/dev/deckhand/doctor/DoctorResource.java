package dev.deckhand.doctor;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code GET /api/doctor} (docs/design.md#owner-boundary): every {@link DoctorCheck} bean, each green or red with how
 * to fix it → {@code {ok, checkedAt, checks: [{id, title, ok, detail, fix}]}}, sorted by id within the
 * order of {@link #ORDER}. {@code ok} is true only when every check is. A check that throws becomes a
 * red line naming the exception (the contract says checks never throw; the doctor does not trust it).
 */
@Path("/api/doctor")
public class DoctorResource {

    /** The order a person reads them in: the desktop first, the model and config last; others after. */
    static final List<String> ORDER = List.of(
            "display",
            "session",
            "atspi-bus",
            "toolkit-a11y",
            "keyboard-path",
            "pointer-path",
            "capture",
            "model",
            "config");

    @Inject
    Instance<DoctorCheck> checks;

    @Inject
    dev.deckhand.owner.GrantService grants;

    public record Report(boolean ok, Instant checkedAt, List<DoctorCheck.Result> checks) {}

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Report doctor() {
        List<DoctorCheck.Result> results = new ArrayList<>();
        for (DoctorCheck check : checks) {
            try {
                results.add(check.check());
            } catch (RuntimeException e) {
                String name = check.getClass().getSimpleName();
                results.add(DoctorCheck.Result.failed(
                        name,
                        name,
                        "the check itself failed: " + e,
                        "report this; Deckhand's log has the stack trace"));
            }
        }
        results.sort(
                Comparator.comparingInt((DoctorCheck.Result r) -> rank(r.id())).thenComparing(DoctorCheck.Result::id));
        return new Report(
                results.stream().allMatch(DoctorCheck.Result::ok),
                grants.clock().instant(),
                List.copyOf(results));
    }

    private static int rank(String id) {
        int i = ORDER.indexOf(id);
        return i < 0 ? ORDER.size() : i;
    }
}
