#!/usr/bin/env bash
# tailstream's topics on a Kafka cluster of three brokers or more, created with Kafka's own kafka-topics.sh.
#
# The one list of topics an operator deploys. TopicScriptTest (infra module) runs this script with a stand-in for
# kafka-topics.sh and checks every topic, partition count, replication and config against the code's specs
# (io.tailstream.schemas.Topics, TopicProvisioner.Replication): change both together or the build fails.
#
#   BOOTSTRAP=kafka-1:9092 ./create-topics.sh                   # kafka-topics.sh on PATH
#   KAFKA_TOPICS=/opt/kafka/bin/kafka-topics.sh BOOTSTRAP=... ./create-topics.sh --command-config client.properties
#
# Extra arguments (e.g. --command-config FILE for a secured cluster) are passed to every kafka-topics.sh call.
# Topics that exist already are left as they are (--if-not-exists), as tailstream itself does.
#
# Retention: 7 days on every topic. The samples topic holds every transaction's latency; as long as it does, any
# view (another window, percentile or stall rule) can be recomputed by a new aggregator (another --application-id)
# and a lost or damaged archive rebuilt by `tailstream archive`. 7 days covers a 12-hour soak run on a Friday and
# re-aggregated or re-archived after the week-end; the Parquet archive is the long-term copy. Size the brokers' disks
# for 7 days of samples times 3 replicas (kafka-log-dirs.sh --describe shows what a day of your load takes).
set -euo pipefail

BOOTSTRAP="${BOOTSTRAP:-localhost:9092}"
KAFKA_TOPICS="${KAFKA_TOPICS:-kafka-topics.sh}"

# three replicas, two in sync: an acks=all block is on two brokers, the loss of one broker loses nothing
REPLICATION_FACTOR=3
MIN_INSYNC_REPLICAS=2
RETENTION_MS=604800000 # 7 days

topic() {
  local name="$1" partitions="$2"
  shift 2
  local configs=()
  for c in "$@"; do
    configs+=(--config "$c")
  done
  "$KAFKA_TOPICS" --bootstrap-server "$BOOTSTRAP" "${EXTRA_ARGS[@]}" --create --if-not-exists --topic "$name" \
    --partitions "$partitions" --replication-factor "$REPLICATION_FACTOR" \
    --config "min.insync.replicas=$MIN_INSYNC_REPLICAS" "${configs[@]}"
}

EXTRA_ARGS=("$@")

# The samples and windows topics' partitions bound the aggregator instances (stream threads) that share the work:
# 6 lets up to six run. Start `tailstream aggregate` with the same --partitions.
#     name                     partitions  configs
topic tailstream.samples       6  "retention.ms=$RETENTION_MS" cleanup.policy=delete compression.type=producer max.message.bytes=8388608
topic tailstream.windows       6  "retention.ms=$RETENTION_MS" cleanup.policy=delete
# one partition: a run's control events stay in order
topic tailstream.control       1  "retention.ms=$RETENTION_MS" cleanup.policy=delete
topic tailstream.stalls        1  "retention.ms=$RETENTION_MS" cleanup.policy=delete
topic tailstream.summaries     1  "retention.ms=$RETENTION_MS" cleanup.policy=delete
topic tailstream.run-summaries 1  "retention.ms=$RETENTION_MS" cleanup.policy=delete
topic tailstream.deadletter    1  "retention.ms=$RETENTION_MS" cleanup.policy=delete
