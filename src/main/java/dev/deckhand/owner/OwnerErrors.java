package dev.deckhand.owner;

import dev.deckhand.grant.GrantConflictException;
import dev.deckhand.grant.RefusedException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.NoSuchElementException;

/** Owner API errors as JSON with a status that says what kind of problem it is. */
public final class OwnerErrors {

    private OwnerErrors() {}

    static Response error(Response.Status status, String error, String detail) {
        return error(status.getStatusCode(), error, detail);
    }

    /** By number: 422 has no {@link Response.Status} constant ({@code fromStatusCode(422)} is null). */
    static Response error(int status, String error, String detail) {
        return Response.status(status)
                .type(MediaType.APPLICATION_JSON)
                .entity(new Views.ErrorView(error, detail))
                .build();
    }

    /** A refusal (e.g. granting Deckhand's own window, CONFIG_MISSING): 422 with its code. */
    @Provider
    public static class Refused implements ExceptionMapper<RefusedException> {
        @Override
        public Response toResponse(RefusedException e) {
            return error(422, e.code().name(), e.refusal().detail());
        }
    }

    /** A second grant while one is active, or an approval no longer pending: 409. */
    @Provider
    public static class Conflict implements ExceptionMapper<IllegalStateException> {
        @Override
        public Response toResponse(IllegalStateException e) {
            String detail = e instanceof GrantConflictException c
                    ? "grant " + c.activeGrantId() + " is active; revoke it or press Stop before granting another"
                    : e.getMessage();
            return error(Response.Status.CONFLICT, "conflict", detail);
        }
    }

    /** A field that names what is wrong: 400. */
    @Provider
    public static class BadRequest implements ExceptionMapper<IllegalArgumentException> {
        @Override
        public Response toResponse(IllegalArgumentException e) {
            return error(Response.Status.BAD_REQUEST, "invalid", e.getMessage());
        }
    }

    @Provider
    public static class NotFound implements ExceptionMapper<NoSuchElementException> {
        @Override
        public Response toResponse(NoSuchElementException e) {
            return error(Response.Status.NOT_FOUND, "not_found", e.getMessage());
        }
    }
}
