package io.tailstream.producer.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import io.tailstream.producer.RunPlan;

/**
 * One verdict check id of {@code accept}, checked as the parser reads it so the error points at the item.
 *
 * <p>Its simple name shows in plan errors, as {@link Root} says. Not thread safe; used once per parse.
 */
final class CheckEntry {
    final String id;

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    CheckEntry(String id) {
        this.id = RunPlan.requireCheck(id);
    }
}
