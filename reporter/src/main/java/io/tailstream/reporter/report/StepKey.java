package io.tailstream.reporter.report;

import java.sql.ResultSet;
import java.sql.SQLException;

/** One step of one run: how the report's queries key what they read per step. */
record StepKey(String runId, int stepId) {

    static StepKey of(StepInfo step) {
        return new StepKey(step.runId(), step.stepId());
    }

    /** The key of the current row of a query that selects {@code run_id} and {@code step_id}. */
    static StepKey read(ResultSet rs) throws SQLException {
        return new StepKey(rs.getString("run_id"), rs.getInt("step_id"));
    }
}
