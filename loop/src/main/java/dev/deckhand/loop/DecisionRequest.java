package dev.deckhand.loop;

import dev.deckhand.loop.route.Route;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything the decider may send to the model for one turn — never the history of images.
 *
 * @param instruction the user's words
 * @param lastSteps the last few steps as short lines (oldest first), typed text only as its length
 * @param observation the compact observation text ({@link dev.deckhand.loop.observe.ObservationText})
 * @param capture the capture for this turn, only on a route that takes captures
 * @param feedback why the previous output of this turn was refused, when it is being asked again
 * @param actionSchema the JSON Schema of the actions permitted on this route
 * @param route the run's route
 * @param syntheticInput whether the window takes key, type and click_at (false on a native Wayland window)
 * @param captureWithheld on a route that takes captures, why this turn has none (secure input: the refusal's
 *     detail); the model then acts by uid, and {@code click_at} has no basis this turn
 */
public record DecisionRequest(
        String instruction,
        List<String> lastSteps,
        String observation,
        Optional<RunCapture> capture,
        Optional<String> feedback,
        String actionSchema,
        Route route,
        boolean syntheticInput,
        Optional<String> captureWithheld) {

    public DecisionRequest {
        Objects.requireNonNull(instruction, "instruction");
        lastSteps = List.copyOf(Objects.requireNonNull(lastSteps, "lastSteps"));
        Objects.requireNonNull(observation, "observation");
        Objects.requireNonNull(capture, "capture");
        Objects.requireNonNull(feedback, "feedback");
        Objects.requireNonNull(actionSchema, "actionSchema");
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(captureWithheld, "captureWithheld");
    }

    public DecisionRequest(
            String instruction,
            List<String> lastSteps,
            String observation,
            Optional<RunCapture> capture,
            Optional<String> feedback,
            String actionSchema,
            Route route,
            boolean syntheticInput) {
        this(
                instruction,
                lastSteps,
                observation,
                capture,
                feedback,
                actionSchema,
                route,
                syntheticInput,
                Optional.empty());
    }

    public DecisionRequest(
            String instruction,
            List<String> lastSteps,
            String observation,
            Optional<RunCapture> capture,
            Optional<String> feedback,
            String actionSchema,
            Route route) {
        this(instruction, lastSteps, observation, capture, feedback, actionSchema, route, true);
    }

    public DecisionRequest withFeedback(String why) {
        return new DecisionRequest(
                instruction,
                lastSteps,
                observation,
                capture,
                Optional.of(why),
                actionSchema,
                route,
                syntheticInput,
                captureWithheld);
    }
}
