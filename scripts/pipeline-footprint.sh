#!/usr/bin/env bash
# What the local pipeline costs the load: per workload and driver, `tailstream run` alone (`--no-emit`, A) and the
# default `run` with its local pipeline (B: a broker in a JVM of its own at the lowest CPU priority during the load,
# then the aggregator, archiver and report), alternated A B A B A on the same database.
# Prints TPS of every run and each B as a ratio of the mean of the two A runs around it. B=live makes B a live run
# (`run --live`: the aggregator also runs during the load, at the lowest priority, with its live page).
#
# Usage (from the repository root, after `./mvnw -pl cli -am package -DskipTests`):
#   export TAILSTREAM_MYSQL_PASSWORD=...            # read from the environment, never from the command line
#   scripts/pipeline-footprint.sh [workload ...]     # default: oltp_point_select oltp_read_write
#
# Settings (environment, defaults in brackets): MYSQL_HOST [127.0.0.1], MYSQL_PORT [3306], MYSQL_USER [tailstream],
# MYSQL_DB [tailstream_test], TABLES [8], TABLE_SIZE [10000], THREADS [8], WARMUP seconds [10], DURATION seconds
# [20], PAIRS [2]: B runs per workload and driver, DRIVERS [mariadb mysql]: jdbc:mariadb: (MariaDB Connector/J)
# and jdbc:mysql: (MySQL Connector/J), PREPARE [1] (0: reuse loaded sbtest tables), JAR
# [cli/target/tailstream-all.jar], OUT [a new temporary folder: logs, JSON and archives of every run],
# TAILSTREAM_JAVA_OPTS [none]: JVM options of every run, B [pipeline]: pipeline (the default run) or live (run --live).
#
# Both modes run WARMUP + DURATION seconds and count the DURATION part; B also starts the broker before the step
# and aggregates, archives and reports after it, outside the counted part. Run on a quiet machine;
# the load average before each run is printed so a noisy run can be seen.
set -euo pipefail

WARMUP=${WARMUP:-10}
B=${B:-pipeline}
case "$B" in pipeline | live) ;; *) echo "B must be pipeline or live, was $B" >&2; exit 2 ;; esac
PAIRS=${PAIRS:-2}
DRIVERS=${DRIVERS:-mariadb mysql}
WORKLOADS=("$@")
[ ${#WORKLOADS[@]} -gt 0 ] || WORKLOADS=(oltp_point_select oltp_read_write)
# shellcheck source=lib/mysql-runs.sh
. "$(dirname "$0")/lib/mysql-runs.sh"

OUT=${OUT:-$(mktemp -d -t pipeline-footprint.XXXXXX)}
mkdir -p "$OUT"

if [ "$PREPARE" = 1 ]; then
  echo "loading $TABLES x $TABLE_SIZE rows (tailstream prepare)" >&2
  tailstream mariadb cleanup --workload oltp_read_write > "$OUT/prepare.log" 2>&1
  tailstream mariadb prepare --workload oltp_read_write --quiet >> "$OUT/prepare.log" 2>&1
fi

# prints the TPS of one run; mode is no-emit, pipeline or live
run_one() {
  run_tailstream "$@"
  jq -r '.steps[0].tps' "$4.json"
}

printf '%-20s %-8s %-9s %6s %10s\n' workload driver mode load tps | tee "$OUT/summary.txt"
for w in "${WORKLOADS[@]}"; do
  for d in $DRIVERS; do
    l=$(load)
    prev=$(run_one "$w" no-emit "$d" "$OUT/$w.$d.no-emit.0.log")
    printf '%-20s %-8s %-9s %6s %10.1f\n' "$w" "$d" no-emit "$l" "$prev" | tee -a "$OUT/summary.txt"
    for i in $(seq "$PAIRS"); do
      l=$(load)
      tps=$(run_one "$w" "$B" "$d" "$OUT/$w.$d.$B.$i.log")
      printf '%-20s %-8s %-9s %6s %10.1f\n' "$w" "$d" "$B" "$l" "$tps" | tee -a "$OUT/summary.txt"
      l=$(load)
      next=$(run_one "$w" no-emit "$d" "$OUT/$w.$d.no-emit.$i.log")
      printf '%-20s %-8s %-9s %6s %10.1f\n' "$w" "$d" no-emit "$l" "$next" | tee -a "$OUT/summary.txt"
      echo "$prev $tps $next" | awk -v w="$w" -v d="$d" -v b="$B" '{
          printf "%-20s %-8s %s / no-emit %.3f (no-emit %.0f and %.0f around it)\n", w, d, b, $2 / (($1 + $3) / 2), $1, $3
        }' | tee -a "$OUT/summary.txt"
      prev=$next
    done
  done
done
echo "logs in $OUT" >&2
