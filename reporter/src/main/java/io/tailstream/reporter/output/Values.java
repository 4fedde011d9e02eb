package io.tailstream.reporter.output;

import java.math.BigDecimal;

/** How a value reads as text in every output format: numbers in plain decimal notation without trailing zeros. */
final class Values {

    private Values() {}

    /**
     * {@code 2.5}, {@code 0.00001} (never {@code 1.0E-5}), {@code 2} for {@code 2.0}, {@code NaN} and
     * {@code Infinity} as Java spells them; DECIMALs keep their scale; anything else as {@link String#valueOf}.
     */
    public static String text(Object v) {
        if (v instanceof Double d) {
            return Double.isFinite(d) ? BigDecimal.valueOf(d).stripTrailingZeros().toPlainString() : d.toString();
        } else if (v instanceof Float f) {
            return Float.isFinite(f) ? new BigDecimal(Float.toString(f)).stripTrailingZeros().toPlainString()
                    : f.toString();
        } else if (v instanceof BigDecimal b) {
            return b.toPlainString();
        }
        return String.valueOf(v);
    }
}
