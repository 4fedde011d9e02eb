package io.tailstream.aggregator.step;

import io.tailstream.analysis.Plateau;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.RunStarted;
import io.tailstream.schemas.event.RunSummary;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.StepSummary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a run's state ({@link RunState}) follows its control events, dead letters and step summaries, and when its
 * {@link RunSummary} ({@link RunSummaryCalculator}) is published: on each {@code RunEnded}, and again on each later
 * change of the ended run (a step summary, a dead letter). Each rule takes the run's stored state (null when stage 3
 * holds none) and gives the {@link Change} to store and publish, or null when there is none.
 *
 * <p>Times are wall clock, ms since the epoch. Stateless and thread safe.
 */
final class RunSummaries {

    private static final Logger LOG = LoggerFactory.getLogger(RunSummaries.class);

    private RunSummaries() {}

    /**
     * A run's change.
     *
     * @param run     the run's next state
     * @param summary the run summary to publish once {@code run} is stored, or null
     */
    record Change(RunState run, RunSummary summary) {}

    /** A control event of the run: its plan, a step's description, or its end. */
    static Change control(RunState r, ControlEvent event, long nowMs) {
        if (event instanceof RunStarted e) {
            Plateau plan = RunSummaryCalculator.planPlateau(e.settings());
            return new Change(orStart(r, e.runId(), nowMs).withPlateau(plan == null ? null : plan.minGainPct(),
                    plan == null ? null : plan.patience(), nowMs), null);
        }
        if (event instanceof StepStarted e) {
            return new Change(orStart(r, e.runId(), nowMs).withStepStarted(e, nowMs), null);
        }
        if (event instanceof RunEnded e) {
            if (r == null) {
                LOG.info("run {} ended (producer {}) but stage 3 holds nothing of it (no RunStarted or StepStarted, "
                        + "or dropped {} after its last run summary): no run summary", e.runId(), e.producerId(),
                        RunState.RUN_GRACE);
                return null;
            }
            return published(r.endedAt(nowMs), nowMs);
        }
        return null;
    }

    /**
     * An input record of the run went to the dead-letter topic: counted in the run summary (published again if the
     * run ended). A run stage 3 does not know (no {@code RunStarted} or {@code StepStarted} yet, or dropped) is not
     * created for it: a garbled key must not make state.
     */
    static Change deadLetter(RunState r, String runId, String reason, long nowMs) {
        if (r == null) {
            LOG.info("dead letter ({}) of run {}, which stage 3 does not know: not in a run summary", reason, runId);
            return null;
        }
        return changed(r.withDeadLetter(reason, nowMs), nowMs);
    }

    /** A step summary of the run was published: its figures replace the scope's earlier ones. */
    static Change stepSummary(RunState r, StepSummary s, long nowMs) {
        if (r == null) {
            return null; // no StepStarted of the run (or dropped after its grace): nothing to group the step by
        }
        return changed(r.withFigures(RunState.StepFigures.of(s), nowMs), nowMs);
    }

    private static RunState orStart(RunState r, String runId, long nowMs) {
        return r == null ? RunState.start(runId, nowMs) : r;
    }

    /** A changed run: its run summary is published again once the run ended. */
    private static Change changed(RunState next, long nowMs) {
        return next.ended() ? published(next, nowMs) : new Change(next, null);
    }

    private static Change published(RunState r, long nowMs) {
        return new Change(r.publishedAt(nowMs), RunSummaryCalculator.compute(r, nowMs));
    }
}
