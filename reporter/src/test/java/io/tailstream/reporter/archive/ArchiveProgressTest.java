package io.tailstream.reporter.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ArchiveProgressTest {

    @Test
    void catchingUp_lineHasDoneTotalRateAndEta() {
        // 250 of 1,000 records in 10 s: 30 s to go; 256,000 samples seen, so ~1,024,000 in all
        ArchiveProgress p = new ArchiveProgress(256_000, 250, 1_000, -1, 1024, 0, Duration.ofSeconds(10), 0);
        assertThat(p.etaSeconds()).hasValue(30);
        assertThat(p.samplesPerSecond()).isEqualTo(25_600.0);
        assertThat(p.line()).isEqualTo("archived 256,000 of ~1,024,000 samples (250 of 1,000 records, 25%),"
                + " 25,600 samples/s, ETA 30 s");
    }

    @Test
    void catchingUp_beforeAnyRecord_totalAndEtaUnknown() {
        ArchiveProgress p = new ArchiveProgress(0, 0, 1_000, -1, 0, 0, Duration.ofSeconds(5), 0);
        assertThat(p.etaSeconds()).isEmpty();
        assertThat(p.line()).isEqualTo("archived 0 of ? samples (0 of 1,000 records, 0%), 0 samples/s, ETA ?");
    }

    @Test
    void continuous_lineHasLagInSamplesAndSeconds() {
        // newest block sealed at 100.0 s, now 102.5 s; 40 records behind at 1,000 samples a block
        ArchiveProgress p = new ArchiveProgress(3_000_000, 3_000, -1, 40, 1_000, 100_000_000L,
                Duration.ofSeconds(30), 102_500);
        assertThat(p.lagSamples()).isEqualTo(40_000);
        assertThat(p.lagSeconds()).isEqualTo(2.5);
        assertThat(p.etaSeconds()).isEmpty();
        assertThat(p.line()).isEqualTo("archived 3,000,000 samples, 100,000 samples/s; ~40,000 samples (40 records)"
                + " behind; newest block sealed 2.5 s ago");
    }

    @Test
    void continuous_caughtUp_saysSo() {
        ArchiveProgress p = new ArchiveProgress(10, 1, -1, 0, 10, 0, Duration.ofSeconds(1), 5_000);
        assertThat(p.line()).isEqualTo("archived 10 samples, 10 samples/s; caught up; newest block sealed never");
    }
}
