package io.tailstream.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleBlockDecoder;
import io.tailstream.schemas.block.SampleBlockEncoder;
import io.tailstream.schemas.block.SampleBlockEncoder.Position;
import io.tailstream.schemas.block.SampleBlockEncoder.Sealed;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The emitter seals twice while the owner adds six, the second time from where the first ended
 * ({@link Sealed#next()}): together the two blocks hold a prefix of the owner's samples, each exactly once, in
 * order, every value (the second block's base start included) exact. r1: samples in both blocks; r2: 1 if exact.
 */
@JCStressTest
@Outcome(id = {"0, 1", "1, 1", "2, 1", "3, 1", "4, 1", "5, 1", "6, 1"}, expect = ACCEPTABLE,
        desc = "the two blocks hold a prefix of the owner's samples, once each, exact")
@Outcome(expect = FORBIDDEN, desc = "a sample is missing, repeated or differs from what the owner published")
@State
public class SealPublishedTwiceStress {

    private final SampleBlockEncoder encoder = new SampleBlockEncoder(HandOverSamples.COUNT, false);

    @Actor
    public void owner() {
        HandOverSamples.addAll(encoder);
    }

    @Actor
    public void emitter(II_Result r) {
        List<Sample> got = new ArrayList<>();
        Position at = Position.START;
        boolean counted = true;
        for (int k = 0; k < 2; k++) {
            Sealed s = encoder.sealPublished(at, "run", "p1", k, 1, 0, HandOverSamples.OPS, 0);
            if (s != null) {
                List<Sample> block = SampleBlockDecoder.samples(s.block());
                counted &= block.size() == s.samples();
                got.addAll(block);
                at = s.next();
            }
        }
        r.r1 = got.size();
        r.r2 = counted && at.samples() == got.size() && HandOverSamples.isPrefix(got, 0) ? 1 : 0;
    }
}
