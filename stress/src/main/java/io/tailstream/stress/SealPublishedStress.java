package io.tailstream.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.tailstream.schemas.block.SampleBlockDecoder;
import io.tailstream.schemas.block.SampleBlockEncoder;
import io.tailstream.schemas.block.SampleBlockEncoder.Position;
import io.tailstream.schemas.block.SampleBlockEncoder.Sealed;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The emitter seals the published samples once while the owner adds six: it may see any prefix (0 to 6 samples,
 * depending on when it runs), but each sample it sees must be exactly what the owner wrote. r1: samples sealed;
 * r2: 1 if they are the owner's first r1 samples exactly, 0 if any value is wrong.
 */
@JCStressTest
@Outcome(id = {"0, 1", "1, 1", "2, 1", "3, 1", "4, 1", "5, 1", "6, 1"}, expect = ACCEPTABLE,
        desc = "a prefix of the owner's samples, every value exact")
@Outcome(expect = FORBIDDEN, desc = "a sealed sample differs from what the owner published")
@State
public class SealPublishedStress {

    private final SampleBlockEncoder encoder = new SampleBlockEncoder(HandOverSamples.COUNT, false);

    @Actor
    public void owner() {
        HandOverSamples.addAll(encoder);
    }

    @Actor
    public void emitter(II_Result r) {
        Sealed s = encoder.sealPublished(Position.START, "run", "p1", 0, 1, 0, HandOverSamples.OPS, 0);
        if (s == null) {
            r.r1 = 0;
            r.r2 = 1;
            return;
        }
        var got = SampleBlockDecoder.samples(s.block());
        r.r1 = got.size();
        r.r2 = got.size() == s.samples() && HandOverSamples.isPrefix(got, 0) ? 1 : 0;
    }
}
