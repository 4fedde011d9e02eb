/**
 * The archive: Kafka topics to hive-partitioned Parquet datasets, exactly once.
 *
 * <h2>Entry points</h2>
 * {@link io.tailstream.reporter.archive.Archiver#archiveUntilCaughtUp(String, java.nio.file.Path)} (batch: from the
 * committed offsets to the end offsets seen at start) and {@link io.tailstream.reporter.archive.Archiver#runUntilClosed()}
 * (continuous, rolling files every {@code rollInterval} or {@code rollRows}). Both return an
 * {@link io.tailstream.reporter.archive.ArchiveSummary} including a block-sequence check
 * ({@link io.tailstream.reporter.archive.ArchiveVerifier}).
 *
 * <h2>Layout</h2>
 * <pre>
 * ARCHIVE/&lt;dataset&gt;/run_id=&lt;run id&gt;/&lt;topic&gt;-p&lt;partition&gt;-&lt;first offset&gt;-&lt;last offset&gt;.parquet
 * ARCHIVE/steps/run_id=&lt;run id&gt;/steps.parquet
 * ARCHIVE/runs/run_id=&lt;run id&gt;/runs.parquet
 * </pre>
 * Every dataset is partitioned hive-style by {@code run_id}; {@code run_id} is never a column inside the files
 * (readers add it from the path; DuckDB would let the path win over a same-named column anyway). Read it with
 * DuckDB: {@code SELECT * FROM read_parquet('ARCHIVE/samples/*}{@code /*.parquet', hive_partitioning=true)}, with
 * pandas/pyarrow: {@code pd.read_parquet('ARCHIVE/samples')}, with Spark: {@code spark.read.parquet('ARCHIVE/samples')}.
 * Times are integers: {@code *_us} microseconds and {@code *_ms} milliseconds since the Unix epoch (UTC);
 * durations {@code *_us}/{@code *_ms} likewise. Files are ZSTD-compressed Parquet v2; within each row group of a
 * samples file rows are sorted by {@code start_us} (a default-sized file is one row group). Samples go from decoded
 * blocks into primitive column buffers and from there, one row group at a time, straight into Parquet column
 * writers ({@code SampleFile}), so memory is bounded by the row group
 * ({@link io.tailstream.reporter.archive.ArchiverConfig#rowGroupRows()}).
 *
 * <h2>Datasets and columns</h2>
 * <h3>samples (one row per transaction; from {@code tailstream.samples})</h3>
 * {@code step_id} INT32 step of the run (see steps) · {@code producer_id} STRING load client ·
 * {@code block_seq} INT64 the producer's block the sample came in · {@code op} STRING transaction type ·
 * {@code start_us} INT64 start, µs since epoch · {@code latency_us} INT64 service time, µs ·
 * {@code intended_start_us} INT64, nullable: open loop only, when the transaction should have started
 * (coordinated-omission-corrected latency = {@code start_us + latency_us - intended_start_us}); NULL in closed loop,
 * where it equals {@code start_us} · {@code status} STRING {@code ok}, {@code deadlock}, {@code lock_wait_timeout},
 * {@code duplicate_key}, {@code connection_lost}, {@code other_error} · {@code queries} INT32 statements executed
 * (BEGIN/COMMIT included) · {@code warmup} BOOLEAN sample belongs to the warm-up phase.
 * A sample counts in the window it completed in: {@code start_us + latency_us}.
 *
 * <h3>blocks (one row per sample block, heartbeats and end-of-step markers included)</h3>
 * {@code step_id} INT32 · {@code producer_id} STRING · {@code block_seq} INT64 (0, 1, 2, ... per producer) ·
 * {@code kind} STRING {@code samples}, {@code heartbeat}, {@code end_of_step} · {@code open_loop} BOOLEAN ·
 * {@code sealed_at_us} INT64 producer clock at sealing · {@code sample_count} INT32 ·
 * {@code kafka_partition} INT32, {@code kafka_offset} INT64 where it was read. Proves completeness:
 * per producer, {@code count(DISTINCT block_seq) = max(block_seq) + 1 = blocksSent} of its run_ended event.
 *
 * <h3>windows (aggregator output, one row per scope and window; from {@code tailstream.windows})</h3>
 * {@code step_id} INT32 · {@code op} STRING ({@code *} = all ops of the step) · {@code window_start_ms},
 * {@code window_end_ms} INT64 [start, end) · {@code count} INT64 samples completed in the window ·
 * {@code errors} INT64 · {@code errors_by_class} STRING JSON object status→count · {@code queries} INT64 ·
 * {@code warmup_count} INT64 · {@code late_count} INT64 · {@code qps}, {@code tps} DOUBLE per second of window ·
 * {@code mean_us} DOUBLE · {@code p50_us}, {@code p90_us}, {@code p95_us}, {@code p99_us}, {@code p999_us},
 * {@code max_us} INT64 · {@code histogram} STRING base64 compressed HdrHistogram (µs, 3 significant digits) for
 * exact re-merging. A window may appear more than once (late samples): merge rows, never average percentiles.
 * Version 2 of the event ({@code qps}, {@code tps} and the latency figures of successful samples) adds
 * {@code event_version} INT32 · {@code ok_queries} INT64 · {@code errors_per_second} DOUBLE · {@code p9999_us}
 * INT64 · {@code error_histogram} STRING · {@code measured_count}, {@code measured_errors},
 * {@code measured_queries}, {@code measured_ok_queries} INT64 and {@code measured_errors_by_class} STRING (the
 * window's measured samples) · {@code measured_histogram}, {@code measured_error_histogram} STRING (only for a
 * window mixing warm-up and measured samples); null in rows of version-1 events.
 *
 * <h3>control (every control event as sent; from {@code tailstream.control})</h3>
 * {@code type} STRING {@code run_started}, {@code step_started}, {@code step_ended}, {@code client_health},
 * {@code run_ended} · {@code at_ms} INT64 · {@code producer_id} STRING · {@code step_id} INT32 nullable ·
 * {@code event} STRING the event's JSON (schemas' {@code ControlEvent}) · {@code kafka_partition} INT32 ·
 * {@code kafka_offset} INT64.
 *
 * <h3>steps (derived from control; one row per step, merged over producers)</h3>
 * {@code step_id} INT32 · {@code target} STRING · {@code product}, {@code version}, {@code url} (credentials
 * masked) STRING · {@code workload} STRING · {@code threads}, {@code round} INT32 · {@code warmup_ms},
 * {@code measure_ms} INT64 planned · {@code queries_per_txn} DOUBLE · {@code ops} STRING JSON array ·
 * {@code options} STRING JSON object · {@code samples_sent}, {@code blocks_sent}, {@code errors} INT64 and
 * {@code outcome} STRING, NULL until every producer ended the step · {@code started_at_ms} INT64 ·
 * {@code ended_at_ms} INT64 nullable · {@code target_variables} STRING JSON object · {@code monthly_cost} DOUBLE,
 * {@code currency} STRING, {@code nodes} INT32 nullable · {@code producers} INT32 · {@code cost_items} STRING JSON
 * object (the monthly cost's parts in plan order), nullable · {@code client_bound} BOOLEAN,
 * {@code blocks_spooled}, {@code control_events_spooled}, {@code max_spool_bytes} INT64 (step_ended version 2) ·
 * {@code start_us}, {@code measure_start_us} (earliest producer's), {@code measure_end_us} (latest producer's;
 * NULL unless every producer reported them), {@code reconnects} INT64 (summed), {@code load_gen_cpu_pct},
 * {@code process_cpu_pct} DOUBLE (highest producer's) from step_ended version 3 · {@code rtt_method} STRING,
 * {@code rtt_samples} INT32, {@code rtt_min_us}, {@code rtt_p50_us}, {@code rtt_p99_us}, {@code rtt_max_us} DOUBLE:
 * the first producer's round-trip probe from step_started version 2. All nullable (older events).
 *
 * <h3>runs (derived from control; one row per run)</h3>
 * {@code plan_name} STRING · {@code started_at_ms} INT64 · {@code ended_at_ms} INT64 nullable ·
 * {@code producers} STRING JSON array · {@code blocks_sent}, {@code samples_sent} INT64 and {@code outcome}
 * STRING, NULL until every producer ended the run · {@code targets} STRING JSON array of targets (credentials
 * masked) · {@code client}, {@code settings} STRING JSON objects.
 *
 * <h3>client_health (every client_health control event, typed; from {@code tailstream.control})</h3>
 * {@code step_id} INT32 · {@code producer_id} STRING · {@code at_ms} INT64 · {@code process_cpu_pct},
 * {@code machine_cpu_pct} DOUBLE · {@code gc_pause_ms}, {@code emit_backlog_blocks} INT64 · {@code rtt_ms} STRING JSON
 * object endpoint→ms · {@code client_bound} BOOLEAN · {@code load_gen_cpu_pct}, {@code pipeline_cpu_pct},
 * {@code jvm_cpu_pct} DOUBLE nullable (version 2) · {@code kafka_partition} INT32 · {@code kafka_offset} INT64.
 *
 * <h3>stall_events (every record of {@code tailstream.stalls}) and stalls (derived: last record per stall)</h3>
 * {@code step_id} INT32 · {@code kind} STRING hard/throughput/latency · {@code start_ms}, {@code end_ms} INT64 ·
 * {@code open} BOOLEAN · {@code baseline_qps}, {@code min_qps} DOUBLE · {@code baseline_p99_us},
 * {@code worst_p99_us} INT64 · {@code affected_ops} STRING JSON array · {@code at_ms} INT64; stall_events adds
 * {@code kafka_partition}, {@code kafka_offset}. Key of stalls: (step_id, kind, start_ms); a closed record wins,
 * else the latest.
 *
 * <h3>summary_events (every record of {@code tailstream.summaries}) and summaries (derived: last per step and op)</h3>
 * The columns of schemas' {@code StepSummary} in snake case with {@code _us}/{@code _ms} units ({@code count},
 * {@code qps}, {@code p99_us}, {@code stall_ms}, {@code qps_slope_pct_per_hour}, {@code qps_cv}, ...; see
 * docs/archive.md), and those of its version 2 ({@code event_version}, {@code ok_queries},
 * {@code errors_per_second}, {@code p9999_us}, {@code measured_seconds}, {@code measure_start_us},
 * {@code measure_end_us}, {@code span_source}, {@code complete}, {@code trend_windows}, {@code error_mean_us},
 * {@code error_p99_us}, {@code error_max_us}, {@code error_histogram}; null in rows of version-1 events);
 * summary_events adds {@code kafka_partition}, {@code kafka_offset}.
 *
 * <h3>run_summary_events (every record of {@code tailstream.run-summaries}) and run_summaries (derived: the rows of
 * the run's last record)</h3>
 * A {@code RunSummary} flattened into rows by {@code kind}: {@code run}, {@code rounds} (per target, workload,
 * threads and op: {@code qps_mean}, {@code qps_stddev}, {@code qps_min}, {@code qps_max}, the same for {@code tps},
 * {@code mean_us}, {@code p95_us}, {@code p99_us}, and {@code pooled_qps}), {@code sweep} ({@code peak_qps},
 * {@code peak_threads}, {@code plateau_threads}, {@code levels} JSON) and {@code scale_out} ({@code ratio}, ...);
 * columns that do not apply to the kind are null; {@code event_version} INT32 on every row; see docs/archive.md.
 *
 * <h2>Exactly once</h2>
 * See {@link io.tailstream.reporter.archive.Archiver}: atomic rename of files named by offset range, derived
 * files recomputed from the whole control dataset, offsets committed last, replay at the same boundaries after a
 * crash.
 */
package io.tailstream.reporter.archive;
