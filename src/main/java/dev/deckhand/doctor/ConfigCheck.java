package dev.deckhand.doctor;

import dev.deckhand.grant.RefusedException;
import dev.deckhand.policy.PolicyStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** The policy file is present and valid; without it every run is refused with CONFIG_MISSING. */
@ApplicationScoped
public class ConfigCheck implements DoctorCheck {

    static final String ID = "config";
    static final String TITLE = "Configuration present";

    @Inject
    PolicyStore policy;

    @Override
    public Result check() {
        try {
            var config = policy.current();
            return Result.ok(
                    ID,
                    TITLE,
                    "policy " + policy.file() + " is valid (permission mode "
                            + config.permissionMode().wire() + ", "
                            + config.credentialApps().size() + " credential apps denied)");
        } catch (RefusedException e) {
            return Result.failed(ID, TITLE, e.refusal().detail(), "save the policy in the Policy section");
        }
    }
}
