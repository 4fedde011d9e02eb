package io.tailstream.producer.driver;

/**
 * A request to stop a run, from any thread (a shutdown hook, a user's Ctrl-C): the step running when it arrives
 * ends at its workers' next transaction boundary, as {@code interrupted: <reason>}, and no further step starts. The
 * first reason given is kept. Thread safe.
 */
public final class StopSignal {

    // guarded by this
    private String reason;
    private StepRun attached;

    /** Asks the run to stop; later calls keep the first reason. */
    public synchronized void stop(String why) {
        if (reason == null) {
            reason = why == null || why.isBlank() ? "stopped" : why;
        }
        if (attached != null) {
            attached.interrupt(reason);
        }
    }

    /** The reason the run was asked to stop, or null if it was not. */
    public synchronized String reason() {
        return reason;
    }

    /** The step's run starts listening; a stop already requested reaches it at once. */
    synchronized void attach(StepRun run) {
        attached = run;
        if (reason != null) {
            run.interrupt(reason);
        }
    }

    synchronized void detach(StepRun run) {
        if (attached == run) {
            attached = null;
        }
    }
}
