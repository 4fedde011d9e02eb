package io.tailstream.producer.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import io.tailstream.analysis.Plateau;

/**
 * The plateau stop.
 *
 * <p>Its simple name shows in plan errors, as {@link Root} says. Not thread safe; used once per parse.
 */
final class PlateauEntry {
    final double minGainPct;
    int patience = 1;

    @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
    PlateauEntry(@JsonProperty(value = "minGainPct", required = true) double minGainPct) {
        new Plateau(minGainPct, 1); // validates
        this.minGainPct = minGainPct;
    }

    @JsonSetter("patience")
    void patience(int v) {
        new Plateau(minGainPct, v); // validates
        patience = v;
    }
}
