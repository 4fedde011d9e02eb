/**
 * The Kafka Streams topology ({@link io.tailstream.aggregator.topology.AggregatorTopology#build}): two stages, so
 * no per-sample record ever crosses a topic.
 *
 * <h2>Stage 1: decode blocks into partials (one task per samples partition)</h2>
 * {@code BlockDecodeProcessor} decodes each block with a visitor (no per-sample object) and adds its samples to a
 * heap combiner ({@code PartialCombiner}): one recycled histogram builder per (run, step, window, op) touched since
 * the last flush. A sample counts in the window it completed in; per sample the cost is a window computation, an
 * array append while the block is validated, and one bucket increment (successful measured samples into the
 * builder's own bucket set; failed and warm-up samples into sets borrowed only when they occur, so the windows'
 * figures can describe successful work and the measured part of a window exactly). The combiner is flushed — one
 * partial per (window, op) plus the step's "all ops" partial per window, keyed by scope {@code runId/stepId/op},
 * record timestamp = window start, windows in ascending order — when the task prepares a commit, before end-of-step
 * ticks, and when 64 bucket sets are in use. Partials go through the repartition topic
 * {@value io.tailstream.aggregator.topology.AggregatorTopology#PARTIALS_REPARTITION} so all producers' partials of a
 * scope meet in one stage-2 task. Undecodable blocks go, unchanged, to the dead-letter topic with reason, topic,
 * partition and offset in headers ({@link io.tailstream.aggregator.topology.DeadLetters}); processing continues.
 * Unreadable control records go there too ({@code ControlDecodeProcessor}); both are counted in the run summary of
 * the run their key names (a {@code StepInput} of kind {@code dead_letter} to stage 3).
 *
 * <p>Why a combiner flushed at commit, and why that is exactly-once: Kafka Streams commits a task's input offsets
 * and its output in one transaction. The flush runs inside the task's commit preparation ({@code PreCommitHook},
 * the call Kafka Streams makes to flush its record caches), so every sample whose block offset is committed has
 * its partial in the same transaction; after a crash the uncommitted transaction is aborted, the heap combiner is
 * gone with the process, and the blocks are read again. The records crossing the repartition topic and the stage-2
 * store then depend on the windows and scopes touched per commit interval, not on the sample rate: one partial per
 * block (ops + 1 records per 1,024 samples, the first design) measured 0.12–0.5 M samples/s, the combiner
 * several million (docs/benchmarks.md).
 *
 * <h2>Stage 2: merge partials per window</h2>
 * {@code WindowMergeProcessor}, a processor over an in-memory, change-logged window store
 * ({@value io.tailstream.aggregator.topology.AggregatorTopology#WINDOW_STORE}) and a small progress store (its
 * stream time and close bound), so exactly-once holds across a kill and restart (stores are restored from their
 * changelogs; offsets, store writes and output commit in one transaction). A window is emitted once, when the
 * task's stream time reaches its end plus grace. It replaced a DSL windowed aggregate because the DSL
 * drops records later than the grace: here a late partial becomes a <em>late correction</em> — a window record
 * of the closed window holding only the late samples, {@code lateCount == count} — and is counted into the step
 * summary's {@code lateCount}. Why a correction and not only a counter: the windows topic then still accounts for
 * every sample sent (sent = aggregated holds even with late data) and shows where lateness happened. The aggregate
 * is serialized per partial update (a few per window and scope per commit interval, since stage 1 combines),
 * which is why its form is the cheap {@code SparseHistogram} (package {@code window}) rather than an HdrHistogram.
 *
 * <h2>Stage 3: per-run step analysis</h2>
 * Closed windows, late corrections, scope ends and the control topic's events are keyed by run id into the internal
 * topic {@value io.tailstream.aggregator.topology.AggregatorTopology#STEP_INPUT_REPARTITION}, with as many partitions
 * as the samples topic, and read by {@code io.tailstream.aggregator.step.StepProcessor}: stall detection
 * ({@code io.tailstream.aggregator.stall}), roll-ups, step summaries and block accounting. The volume here is one
 * record per scope and window, not per sample; it is partitioned by run so that several runs are analysed in
 * parallel and several aggregator instances share the work (a run's state lives in one task). The control events
 * are merged in before the repartition, not after it: a run's events must reach the task that holds its windows,
 * and the control topic has one partition. The partition count is set explicitly (from the samples topic, when the
 * aggregator starts) because Kafka Streams would otherwise derive it from the first source topic it resolves, which
 * may be the control topic's one partition.
 *
 * <h2>Block accounting</h2>
 * Every block (data, heartbeat, end-of-step marker) is counted once into the step's {@code "*"} partial
 * ({@code WindowAggregate.blocks}); stage 3 adds them up per step and compares them with the sum of the producers'
 * {@code StepEnded.blocksSent}: the difference is the summary's {@code missingBlocks} (-1 until every producer that
 * started the step has reported its end). Per-producer sequence numbers are not compared one by one because
 * end-of-step markers go to every partition with consecutive sequence numbers, so no single stage-1 task sees a
 * producer's whole sequence.
 *
 * <h2>Time without samples</h2>
 * Windows close only when the stage-2 task's stream time passes window end + grace, and stream time comes from
 * records. Heartbeats (every ≤ 250 ms per active step) become empty partials for each op of the step and "all ops",
 * so a hard stall still yields count-0 windows and time advances. An end-of-step marker becomes "tick" partials at
 * (marker's window end + grace) that name the producer and close the step's last window (stage 2 closes only that
 * scope's windows and keeps stream time where it is, see {@code WindowMergeProcessor}); a window holding only ticks is
 * not emitted.
 *
 * <p>Several producers in one step: every partial names the producers whose blocks went into it, so stage 2 knows a
 * scope's producers, and closes the scope only when the ticks of all of them arrived, or {@code stepEndWait} (wall
 * clock) after the first one (a producer killed before its marker). Why not close at the first producer's tick:
 * another producer whose sends lag (a slow broker, its spool) would have its samples of those windows turned into
 * late corrections, and the step's windows split in two. Why the blocks rather than {@code StepStarted}: control
 * events reach stage 3 by run, while stage 2 is partitioned by scope; the blocks are already there, and heartbeats
 * start with the step.
 *
 * <p>Change from the first sketch, and why: ticks are <em>not</em> forwarded when the marker is read. Stream time
 * is per stage-2 partition, shared by every scope hashed there; a tick that jumped stream time grace + 1 s ahead
 * of the wall clock would close the open windows of other producers of the same step (whose last blocks may arrive
 * a few hundred ms after this producer's marker) and of concurrently running steps and runs, dropping their
 * samples as late. So the marker is stored (in-memory, change-logged store
 * {@value io.tailstream.aggregator.topology.AggregatorTopology#PENDING_STEP_ENDS_STORE}, so a restart keeps it)
 * and a wall-clock punctuation forwards the ticks once the wall clock has reached their timestamp: stream time
 * then never runs ahead of real time (assuming producer and aggregator clocks agree to well under the grace).
 *
 * <p>Emission: stage 2 is a processor, not a DSL windowed aggregate, so Kafka Streams' internal emit throttle does
 * not apply; a window is emitted as soon as stream time (or its scope's end-of-step tick) closes it.
 *
 * <h2>Known limits</h2>
 * <ul>
 *   <li>Replay skew: when re-aggregating a backlog, stage-1 tasks of different samples partitions may run apart by
 *       more than the grace in event time and the leading one closes windows the others still feed. Their samples
 *       are no longer lost (late corrections, of base windows and of roll-ups), but the windows are split into a
 *       regular record and corrections. Partials that only count blocks (end-of-step marker copies, read first by
 *       the stage-1 task of a partition carrying nothing else of their producer) do not move stage 2's stream time,
 *       so they do not add to this skew. Live (the demo, a soak) the skew is the processing lag, far below 2 s.</li>
 *   <li>Throughput: per sample, stage 1 decodes and records into a histogram; per window and scope, stages 2 and 3
 *       serialize aggregates, build an HdrHistogram for the window's figures and parse it again for stalls and
 *       roll-ups (a few ms per window). See {@code docs/benchmarks.md} for the measured split.</li>
 *   <li>Summaries are published once the step is complete: its scopes ended (every producer's tick arrived, see
 *       above), every producer reported its end and every block was counted; a producer that never ends is waited for a bounded time (see {@code io.tailstream.aggregator.step.StepSummaries}). They are
 *       published again only when their figures change; consumers keep the last record per key, as for stalls.</li>
 * </ul>
 */
package io.tailstream.aggregator.topology;
