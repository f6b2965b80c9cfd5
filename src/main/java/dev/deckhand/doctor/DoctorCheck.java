package dev.deckhand.doctor;

/**
 * One line of the permission doctor ({@code GET /api/doctor}). Each implementation is a CDI bean;
 * the doctor collects every bean of this type, so a part of Deckhand (the driver, the model
 * binding, presence) reports its own health without the doctor knowing it.
 */
public interface DoctorCheck {

    /** Reads the current state; never throws (a failure to read is itself a red result). */
    Result check();

    /**
     * @param id stable machine name, e.g. {@code "stop-shortcut"}
     * @param title what is checked, in words
     * @param ok green or red
     * @param detail what was found (never a secret)
     * @param fix how to make it green; null when ok
     */
    record Result(String id, String title, boolean ok, String detail, String fix) {
        public static Result ok(String id, String title, String detail) {
            return new Result(id, title, true, detail, null);
        }

        public static Result failed(String id, String title, String detail, String fix) {
            return new Result(id, title, false, detail, fix);
        }
    }
}
