package dev.deckhand.doctor;

import dev.deckhand.grant.RefusedException;
import dev.deckhand.platform.Desktops;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** The AT-SPI accessibility bus answers: Deckhand reads every app's elements over it. */
@ApplicationScoped
public class AtspiBusCheck implements DoctorCheck {

    static final String ID = "atspi-bus";
    static final String TITLE = "Accessibility bus (AT-SPI) answering";

    @Inject
    Desktops desktops;

    @Override
    public Result check() {
        try {
            var facts = desktops.desktop().facts().current();
            return Result.ok(
                    ID,
                    TITLE,
                    "the bus answers (focus and password-field state read now"
                            + (facts.passwordFocused()
                                    ? "; a password field has focus, so every action is refused until it has not"
                                    : "")
                            + ")");
        } catch (RefusedException e) {
            return Result.failed(
                    ID,
                    TITLE,
                    e.code() + ": " + e.refusal().detail(),
                    "make sure at-spi2-core is installed and the session bus runs (DBUS_SESSION_BUS_ADDRESS set); "
                            + "a desktop session starts at-spi-bus-launcher itself. If an app is still starting, check again in a moment");
        }
    }
}
