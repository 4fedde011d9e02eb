package io.tailstream.reporter.archive;

import io.tailstream.reporter.archive.ArchiveRows.BlockRow;
import io.tailstream.reporter.archive.ArchiveRows.ControlRow;
import io.tailstream.reporter.archive.ArchiveRows.RunRow;
import io.tailstream.reporter.archive.ArchiveRows.StepRow;
import io.tailstream.reporter.parquet.TableSchema;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunSummary;
import io.tailstream.schemas.event.StepSummary;
import io.tailstream.schemas.event.WindowStats;

/**
 * The Parquet schema of each dataset. Column names and meanings are documented in {@code package-info.java};
 * change both together. No dataset has a {@code run_id} column: it is the hive partition key.
 */
final class ArchiveSchemas {

    private ArchiveSchemas() {}

    static final TableSchema<SampleColumns.Row> SAMPLES = TableSchema.<SampleColumns.Row>builder("samples")
            .int32("step_id", SampleColumns.Row::stepId)
            .string("producer_id", SampleColumns.Row::producerId)
            .int64("block_seq", SampleColumns.Row::blockSeq)
            .string("op", SampleColumns.Row::op)
            .int64Sorted("start_us", SampleColumns.Row::startUs)
            .int64("latency_us", SampleColumns.Row::latencyUs)
            // null in closed loop, where it would repeat start_us: saves ~0.9 B of ~3.6 B per sample
            .optionalInt64Sorted("intended_start_us", SampleColumns.Row::openLoop, SampleColumns.Row::intendedStartUs)
            .string("status", SampleColumns.Row::status)
            .int32("queries", SampleColumns.Row::queries)
            .bool("warmup", SampleColumns.Row::warmup)
            .build();

    static final TableSchema<BlockRow> BLOCKS = TableSchema.<BlockRow>builder("blocks")
            .int32("step_id", BlockRow::stepId)
            .string("producer_id", BlockRow::producerId)
            .int64("block_seq", BlockRow::blockSeq)
            .string("kind", BlockRow::kind)
            .bool("open_loop", BlockRow::openLoop)
            .int64("sealed_at_us", BlockRow::sealedAtUs)
            .int32("sample_count", BlockRow::sampleCount)
            .int32("kafka_partition", BlockRow::kafkaPartition)
            .int64Sorted("kafka_offset", BlockRow::kafkaOffset)
            .build();

    static final TableSchema<WindowStats> WINDOWS = TableSchema.<WindowStats>builder("windows")
            .int32("step_id", WindowStats::stepId)
            .string("op", WindowStats::op)
            .int64Sorted("window_start_ms", WindowStats::windowStartEpochMs)
            .int64Sorted("window_end_ms", WindowStats::windowEndEpochMs)
            .int64("count", WindowStats::count)
            .int64("errors", WindowStats::errors)
            .string("errors_by_class", w -> Json.writeString(w.errorsByClass()))
            .int64("queries", WindowStats::queries)
            .int64("warmup_count", WindowStats::warmupCount)
            .int64("late_count", WindowStats::lateCount)
            .float64("qps", WindowStats::qps)
            .float64("tps", WindowStats::tps)
            .float64("mean_us", WindowStats::meanMicros)
            .int64("p50_us", WindowStats::p50Micros)
            .int64("p90_us", WindowStats::p90Micros)
            .int64("p95_us", WindowStats::p95Micros)
            .int64("p99_us", WindowStats::p99Micros)
            .int64("p999_us", WindowStats::p999Micros)
            .int64("max_us", WindowStats::maxMicros)
            .string("histogram", WindowStats::histogram)
            // version 2 of the event (docs/archive.md): null in rows of version-1 events
            .int32("event_version", WindowStats::version)
            .optionalInt64("ok_queries", w -> v2(w) ? w.okQueries() : null)
            .optionalFloat64("errors_per_second", w -> v2(w) ? w.errorsPerSecond() : null)
            .optionalInt64("p9999_us", w -> v2(w) ? w.p9999Micros() : null)
            .optionalString("error_histogram", WindowStats::errorHistogram)
            .optionalInt64("measured_count", w -> v2(w) ? w.measuredPart().count() : null)
            .optionalInt64("measured_errors", w -> v2(w) ? w.measuredPart().errors() : null)
            .optionalString("measured_errors_by_class", w -> v2(w)
                    ? Json.writeString(w.measuredPart().errorsByClass()) : null)
            .optionalInt64("measured_queries", w -> v2(w) ? w.measuredPart().queries() : null)
            .optionalInt64("measured_ok_queries", w -> v2(w) ? w.measuredPart().okQueries() : null)
            // only for a window mixing warm-up and measured samples: otherwise the measured samples' latencies are
            // histogram / error_histogram (warmup_count = 0) or none (warmup_count = count)
            .optionalString("measured_histogram", w -> w.measured() == null ? null : w.measured().histogram())
            .optionalString("measured_error_histogram", w -> w.measured() == null ? null
                    : w.measured().errorHistogram())
            .build();

    private static boolean v2(WindowStats w) {
        return w.version() >= WindowStats.VERSION;
    }

    /** Version 2 or later: version 3 only added the producers' breakdown, which the archive does not keep. */
    private static boolean v2(StepSummary s) {
        return s.version() >= 2;
    }

    static final TableSchema<ControlRow> CONTROL = TableSchema.<ControlRow>builder("control")
            .string("type", ControlRow::type)
            .int64("at_ms", ControlRow::atMs)
            .string("producer_id", ControlRow::producerId)
            .optionalInt32("step_id", ControlRow::stepId)
            .string("event", ControlRow::event)
            .int32("kafka_partition", ControlRow::kafkaPartition)
            .int64Sorted("kafka_offset", ControlRow::kafkaOffset)
            .build();

    static final TableSchema<StepRow> STEPS = TableSchema.<StepRow>builder("steps")
            .int32("step_id", StepRow::stepId)
            .string("target", StepRow::targetName)
            .optionalString("product", StepRow::product)
            .optionalString("version", StepRow::version)
            .optionalString("url", StepRow::url)
            .string("workload", StepRow::workload)
            .int32("threads", StepRow::threads)
            .int32("round", StepRow::round)
            .int64("warmup_ms", StepRow::warmupMs)
            .int64("measure_ms", StepRow::measureMs)
            .float64("queries_per_txn", StepRow::queriesPerTxn)
            .string("ops", StepRow::ops)
            .string("options", StepRow::options)
            .optionalInt64("samples_sent", StepRow::samplesSent)
            .optionalInt64("blocks_sent", StepRow::blocksSent)
            .optionalInt64("errors", StepRow::errors)
            .optionalString("outcome", StepRow::outcome)
            .int64("started_at_ms", StepRow::startedAtMs)
            .optionalInt64("ended_at_ms", StepRow::endedAtMs)
            .string("target_variables", StepRow::targetVariables)
            .optionalFloat64("monthly_cost", StepRow::monthlyCost)
            .optionalString("currency", StepRow::currency)
            .optionalInt32("nodes", StepRow::nodes)
            .int32("producers", StepRow::producers)
            .optionalString("cost_items", StepRow::costItems)
            .optionalBool("client_bound", StepRow::clientBound)
            .optionalInt64("blocks_spooled", StepRow::blocksSpooled)
            .optionalInt64("control_events_spooled", StepRow::controlEventsSpooled)
            .optionalInt64("max_spool_bytes", StepRow::maxSpoolBytes)
            .optionalInt64("start_us", StepRow::startUs)
            .optionalInt64("measure_start_us", StepRow::measureStartUs)
            .optionalInt64("measure_end_us", StepRow::measureEndUs)
            .optionalInt64("reconnects", StepRow::reconnects)
            .optionalFloat64("load_gen_cpu_pct", StepRow::loadGenCpuPct)
            .optionalFloat64("process_cpu_pct", StepRow::processCpuPct)
            .optionalString("rtt_method", r -> r.rtt() == null ? null : r.rtt().method())
            .optionalInt32("rtt_samples", r -> r.rtt() == null ? null : r.rtt().samples())
            .optionalFloat64("rtt_min_us", r -> r.rtt() == null ? null : r.rtt().minMicros())
            .optionalFloat64("rtt_p50_us", r -> r.rtt() == null ? null : r.rtt().p50Micros())
            .optionalFloat64("rtt_p99_us", r -> r.rtt() == null ? null : r.rtt().p99Micros())
            .optionalFloat64("rtt_max_us", r -> r.rtt() == null ? null : r.rtt().maxMicros())
            .optionalString("producer_threads", StepRow::producerThreads)
            .build();

    static final TableSchema<RunRow> RUNS = TableSchema.<RunRow>builder("runs")
            .string("plan_name", RunRow::planName)
            .int64("started_at_ms", RunRow::startedAtMs)
            .optionalInt64("ended_at_ms", RunRow::endedAtMs)
            .string("producers", RunRow::producers)
            .optionalInt64("blocks_sent", RunRow::blocksSent)
            .optionalInt64("samples_sent", RunRow::samplesSent)
            .optionalString("outcome", RunRow::outcome)
            .string("targets", RunRow::targets)
            .string("client", RunRow::client)
            .string("settings", RunRow::settings)
            .optionalBool("client_bound", RunRow::clientBound)
            .optionalInt64("blocks_spooled", RunRow::blocksSpooled)
            .optionalInt64("control_events_spooled", RunRow::controlEventsSpooled)
            .optionalInt64("max_spool_bytes", RunRow::maxSpoolBytes)
            .build();

    static final TableSchema<ArchiveRows.ClientHealthRow> CLIENT_HEALTH = TableSchema.<ArchiveRows.ClientHealthRow>builder(
                    "client_health")
            .int32("step_id", r -> r.h().stepId())
            .string("producer_id", r -> r.h().producerId())
            .int64Sorted("at_ms", r -> r.h().atEpochMs())
            .float64("process_cpu_pct", r -> r.h().processCpuPct())
            .float64("machine_cpu_pct", r -> r.h().machineCpuPct())
            .int64("gc_pause_ms", r -> r.h().gcPauseMs())
            .int64("emit_backlog_blocks", r -> r.h().emitBacklogBlocks())
            .string("rtt_ms", r -> Json.writeString(new java.util.TreeMap<>(r.h().rttMillis())))
            .bool("client_bound", r -> r.h().clientBound())
            .optionalFloat64("load_gen_cpu_pct", r -> r.h().loadGenCpuPct())
            .optionalFloat64("pipeline_cpu_pct", r -> r.h().pipelineCpuPct())
            .optionalFloat64("jvm_cpu_pct", r -> r.h().jvmCpuPct())
            .int32("kafka_partition", ArchiveRows.ClientHealthRow::kafkaPartition)
            .int64Sorted("kafka_offset", ArchiveRows.ClientHealthRow::kafkaOffset)
            .build();

    static final TableSchema<ArchiveRows.ServerCounterRow> SERVER_COUNTERS =
            TableSchema.<ArchiveRows.ServerCounterRow>builder("server_counters")
            .int32("step_id", r -> r.e().stepId())
            .string("producer_id", r -> r.e().producerId())
            .string("target", r -> r.e().target())
            .int64Sorted("at_ms", r -> r.e().atEpochMs())
            .optionalString("name", ArchiveRows.ServerCounterRow::name)
            .optionalString("kind", ArchiveRows.ServerCounterRow::kind)
            .optionalInt64("value", ArchiveRows.ServerCounterRow::value)
            .int64("read_us", r -> r.e().readMicros())
            .optionalString("error", r -> r.e().error())
            .int32("kafka_partition", ArchiveRows.ServerCounterRow::kafkaPartition)
            .int64Sorted("kafka_offset", ArchiveRows.ServerCounterRow::kafkaOffset)
            .build();

    static final TableSchema<ArchiveRows.StallRow> STALL_EVENTS = TableSchema.<ArchiveRows.StallRow>builder("stall_events")
            .int32("step_id", ArchiveRows.StallRow::stepId)
            .string("kind", ArchiveRows.StallRow::kind)
            .int64("start_ms", ArchiveRows.StallRow::startMs)
            .int64("end_ms", ArchiveRows.StallRow::endMs)
            .bool("open", ArchiveRows.StallRow::open)
            .float64("baseline_qps", ArchiveRows.StallRow::baselineQps)
            .float64("min_qps", ArchiveRows.StallRow::minQps)
            .int64("baseline_p99_us", ArchiveRows.StallRow::baselineP99Us)
            .int64("worst_p99_us", ArchiveRows.StallRow::worstP99Us)
            .string("affected_ops", ArchiveRows.StallRow::affectedOps)
            .int64("at_ms", ArchiveRows.StallRow::atMs)
            .int32("kafka_partition", ArchiveRows.StallRow::kafkaPartition)
            .int64Sorted("kafka_offset", ArchiveRows.StallRow::kafkaOffset)
            .build();

    static final TableSchema<ArchiveRows.SummaryRow> SUMMARY_EVENTS = TableSchema.<ArchiveRows.SummaryRow>builder(
                    "summary_events")
            .int32("step_id", r -> r.s().stepId())
            .string("op", r -> r.s().op())
            .int64("measure_start_ms", r -> r.s().measureStartEpochMs())
            .int64("measure_end_ms", r -> r.s().measureEndEpochMs())
            .int64("count", r -> r.s().count())
            .int64("errors", r -> r.s().errors())
            .string("errors_by_class", r -> Json.writeString(new java.util.TreeMap<>(r.s().errorsByClass())))
            .int64("queries", r -> r.s().queries())
            .float64("qps", r -> r.s().qps())
            .float64("tps", r -> r.s().tps())
            .float64("mean_us", r -> r.s().meanMicros())
            .int64("p50_us", r -> r.s().p50Micros())
            .int64("p90_us", r -> r.s().p90Micros())
            .int64("p95_us", r -> r.s().p95Micros())
            .int64("p99_us", r -> r.s().p99Micros())
            .int64("p999_us", r -> r.s().p999Micros())
            .int64("max_us", r -> r.s().maxMicros())
            .int32("stall_count", r -> r.s().stallCount())
            .int64("stall_ms", r -> r.s().stallMs())
            // null when the step has too few whole measured windows for a trend (version 2)
            .optionalFloat64("qps_slope_pct_per_hour", r -> r.s().qpsSlopePctPerHour())
            .optionalFloat64("qps_cv", r -> r.s().qpsCv())
            .bool("client_bound", r -> r.s().clientBound())
            .int64("late_count", r -> r.s().lateCount())
            .int64("missing_blocks", r -> r.s().missingBlocks())
            .optionalString("histogram", r -> r.s().histogram())
            .int64("at_ms", r -> r.s().atEpochMs())
            // version 2 of the event (docs/archive.md): null in rows of version-1 events
            .int32("event_version", r -> r.s().version())
            .optionalInt64("ok_queries", r -> v2(r.s()) ? r.s().okQueries() : null)
            .optionalFloat64("errors_per_second", r -> v2(r.s()) ? r.s().errorsPerSecond() : null)
            .optionalInt64("p9999_us", r -> v2(r.s()) ? r.s().p9999Micros() : null)
            .optionalFloat64("measured_seconds", r -> v2(r.s()) ? r.s().measuredSeconds() : null)
            .optionalInt64("measure_start_us", r -> v2(r.s()) ? r.s().measureStartEpochMicros() : null)
            .optionalInt64("measure_end_us", r -> v2(r.s()) ? r.s().measureEndEpochMicros() : null)
            .optionalString("span_source", r -> v2(r.s()) ? r.s().spanSource() : null)
            .optionalBool("complete", r -> v2(r.s()) ? r.s().complete() : null)
            .optionalInt32("trend_windows", r -> v2(r.s()) ? r.s().trendWindows() : null)
            .optionalFloat64("error_mean_us", r -> v2(r.s()) ? r.s().errorMeanMicros() : null)
            .optionalInt64("error_p99_us", r -> v2(r.s()) ? r.s().errorP99Micros() : null)
            .optionalInt64("error_max_us", r -> v2(r.s()) ? r.s().errorMaxMicros() : null)
            .optionalString("error_histogram", r -> r.s().errorHistogram())
            .int32("kafka_partition", ArchiveRows.SummaryRow::kafkaPartition)
            .int64Sorted("kafka_offset", ArchiveRows.SummaryRow::kafkaOffset)
            .build();

    static final TableSchema<ArchiveRows.RunSummaryRow> RUN_SUMMARY_EVENTS = runSummaryColumns(
            TableSchema.<ArchiveRows.RunSummaryRow>builder("run_summary_events"))
            .int32("kafka_partition", ArchiveRows.RunSummaryRow::kafkaPartition)
            .int64Sorted("kafka_offset", ArchiveRows.RunSummaryRow::kafkaOffset)
            .build();

    /** The columns of a flattened {@code RunSummary} (docs/archive.md); null where a column is not the row kind's. */
    private static TableSchema.Builder<ArchiveRows.RunSummaryRow> runSummaryColumns(
            TableSchema.Builder<ArchiveRows.RunSummaryRow> b) {
        b.string("kind", ArchiveRows.RunSummaryRow::kind)
                .optionalString("target", ArchiveRows.RunSummaryRow::target)
                .optionalString("workload", ArchiveRows.RunSummaryRow::workload)
                .optionalInt32("threads", r -> r.rounds() == null ? null : r.rounds().threads())
                .optionalString("op", r -> r.rounds() == null ? null : r.rounds().op())
                .optionalInt32("rounds", r -> r.rounds() == null ? null : r.rounds().rounds())
                .optionalString("step_ids", r -> r.rounds() == null ? null : Json.writeString(r.rounds().stepIds()));
        figure(b, "qps", RunSummary.RoundStats::qps);
        figure(b, "tps", RunSummary.RoundStats::tps);
        figure(b, "mean_us", RunSummary.RoundStats::meanMicros);
        figure(b, "p95_us", RunSummary.RoundStats::p95Micros);
        figure(b, "p99_us", RunSummary.RoundStats::p99Micros);
        return b.optionalFloat64("pooled_qps", r -> r.rounds() == null ? null : r.rounds().pooledQps())
                .optionalFloat64("pooled_tps", r -> r.rounds() == null ? null : r.rounds().pooledTps())
                .optionalInt32("round", r -> r.sweep() == null ? null : r.sweep().round())
                .optionalString("levels", r -> r.sweep() == null ? null : Json.writeString(r.sweep().levels()))
                .optionalFloat64("peak_qps", r -> r.sweep() == null ? null : r.sweep().peakQps())
                .optionalInt32("peak_threads", r -> r.sweep() == null ? null : r.sweep().peakThreads())
                .optionalInt32("plateau_threads", r -> r.sweep() == null ? null : r.sweep().plateauThreads())
                .optionalFloat64("plateau_qps", r -> r.sweep() == null ? null : r.sweep().plateauQps())
                .optionalString("basis", r -> r.scaleOut() == null ? null : r.scaleOut().basis())
                .optionalString("product", r -> r.scaleOut() == null ? null : r.scaleOut().product())
                .optionalString("single_target", r -> r.scaleOut() == null ? null : r.scaleOut().singleTarget())
                .optionalString("multi_target", r -> r.scaleOut() == null ? null : r.scaleOut().multiTarget())
                .optionalInt32("nodes", r -> r.scaleOut() == null ? null : r.scaleOut().nodes())
                .optionalInt32("single_threads", r -> r.scaleOut() == null ? null : r.scaleOut().singleThreads())
                .optionalFloat64("single_qps", r -> r.scaleOut() == null ? null : r.scaleOut().singleQps())
                .optionalInt32("multi_threads", r -> r.scaleOut() == null ? null : r.scaleOut().multiThreads())
                .optionalFloat64("multi_qps", r -> r.scaleOut() == null ? null : r.scaleOut().multiQps())
                .optionalFloat64("ratio", r -> r.scaleOut() == null ? null : r.scaleOut().ratio())
                .float64("plateau_min_gain_pct", r -> r.r().plateauMinGainPct())
                .int32("plateau_patience", r -> r.r().plateauPatience())
                .optionalString("plateau_source", r -> r.r().plateauSource())
                .int32("steps_summarized", r -> r.r().stepsSummarized())
                .string("steps_pending", r -> Json.writeString(r.r().stepsPending()))
                .bool("complete", r -> r.r().complete())
                .int64("at_ms", r -> r.r().atEpochMs())
                .int32("event_version", r -> r.r().version());
    }

    /** {@code NAME_mean}, {@code NAME_stddev} (sample, n - 1; null with one round), {@code NAME_min}, {@code NAME_max}. */
    private static void figure(TableSchema.Builder<ArchiveRows.RunSummaryRow> b, String name,
                               java.util.function.Function<RunSummary.RoundStats, RunSummary.Figure> get) {
        b.optionalFloat64(name + "_mean", r -> r.rounds() == null ? null : get.apply(r.rounds()).mean())
                .optionalFloat64(name + "_stddev", r -> r.rounds() == null ? null : get.apply(r.rounds()).stddev())
                .optionalFloat64(name + "_min", r -> r.rounds() == null ? null : get.apply(r.rounds()).min())
                .optionalFloat64(name + "_max", r -> r.rounds() == null ? null : get.apply(r.rounds()).max());
    }
}
