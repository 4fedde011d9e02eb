#!/usr/bin/env bash
# Side by side: sysbench 1.0.20 and the tailstream producer on the same MySQL/MariaDB, same tables, threads and
# duration, alternating runs per workload: sysbench, then each tailstream mode of MODES followed by sysbench again.
# Prints TPS, QPS and queries per transaction of each run, and each tailstream TPS as a ratio of the mean of the two
# sysbench runs around it (A B A).
#
# Usage (from the repository root, after `./mvnw -pl cli -am package -DskipTests`):
#   export TAILSTREAM_MYSQL_PASSWORD=...            # read from the environment, never from the command line
#   scripts/sysbench-compare.sh [workload ...]       # default: oltp_point_select oltp_read_write oltp_write_only
#
# Settings (environment, defaults in brackets): MYSQL_HOST [127.0.0.1], MYSQL_PORT [3306], MYSQL_USER [tailstream],
# MYSQL_DB [tailstream_test], TABLES [8], TABLE_SIZE [10000], THREADS [8], DURATION seconds [20],
# WARMUP seconds for tailstream's JIT [5], PREPARE [1] (0: reuse loaded sbtest tables), JAR
# [cli/target/tailstream-all.jar], OUT [a new temporary folder: logs of every run], TAILSTREAM_JAVA_OPTS [none]:
# JVM options of the tailstream runs, as the ./tailstream launcher takes them (e.g. -XX:+UseSerialGC),
# MODES [no-emit:mariadb no-emit:mysql pipeline:mariadb]: tailstream runs as MODE:DRIVER, MODE no-emit (the load
# generator alone, like for like with sysbench) or pipeline (the default run with its local pipeline), DRIVER
# mariadb (jdbc:mariadb:, MariaDB Connector/J) or mysql (jdbc:mysql:, MySQL Connector/J).
#
# Fairness: both tools use server-side prepared statements (sysbench --db-ps-mode=auto, its default; tailstream
# sets useServerPrepStmts=true&cachePrepStmts=true). sysbench 1.0.20 has no warm-up option, so it runs DURATION
# seconds from its start; tailstream runs WARMUP + DURATION seconds and counts the DURATION part only (its warm-up
# samples are flagged in the stream). The "pipeline" run includes the whole local pipeline (a Kafka broker in a JVM
# of its own during the load, then the aggregator, archiver and report), sharing the machine's cores with the
# server, which sysbench does not pay; the "no-emit" run is the load generator alone, like for like with sysbench.
# Run on a quiet machine; the load average before each run is printed so a noisy run can be seen.
set -euo pipefail

WARMUP=${WARMUP:-5}
MODES=${MODES:-no-emit:mariadb no-emit:mysql pipeline:mariadb}
WORKLOADS=("$@")
[ ${#WORKLOADS[@]} -gt 0 ] || WORKLOADS=(oltp_point_select oltp_read_write oltp_write_only)
# shellcheck source=lib/mysql-runs.sh
. "$(dirname "$0")/lib/mysql-runs.sh"
command -v sysbench >/dev/null || { echo "sysbench not found (Debian package sysbench)" >&2; exit 2; }
sysbench --version | grep -q '^sysbench 1\.0\.' || echo "warning: $(sysbench --version) is not sysbench 1.0.x" >&2

OUT=${OUT:-$(mktemp -d -t sysbench-compare.XXXXXX)}
mkdir -p "$OUT"
# the password goes to sysbench through a private options file, not its command line (visible in ps)
CONF="$OUT/sysbench.conf"
(umask 077; printf 'mysql-password=%s\n' "$TAILSTREAM_MYSQL_PASSWORD" > "$CONF")
trap 'rm -f "$CONF"' EXIT

SB_COMMON=(--config-file="$CONF" --db-driver=mysql --mysql-host="$MYSQL_HOST" --mysql-port="$MYSQL_PORT"
  --mysql-user="$MYSQL_USER" --mysql-db="$MYSQL_DB" --tables="$TABLES" --table-size="$TABLE_SIZE")

if [ "$PREPARE" = 1 ]; then
  echo "preparing $TABLES x $TABLE_SIZE rows with sysbench (both tools use these tables)" >&2
  sysbench oltp_read_write "${SB_COMMON[@]}" cleanup > "$OUT/prepare.log"
  sysbench oltp_read_write "${SB_COMMON[@]}" --threads="$TABLES" prepare >> "$OUT/prepare.log"
fi

# prints "tps qps" of one sysbench run
run_sysbench() {
  local w=$1 log=$2
  sysbench "$w" "${SB_COMMON[@]}" --threads="$THREADS" --time="$DURATION" --report-interval=0 run > "$log"
  local tps qps
  tps=$(sed -n 's/^ *transactions: *[0-9]* *(\([0-9.]*\) per sec.)/\1/p' "$log")
  qps=$(sed -n 's/^ *queries: *[0-9]* *(\([0-9.]*\) per sec.)/\1/p' "$log")
  [ -n "$tps" ] && [ -n "$qps" ] || { echo "cannot read TPS/QPS from $log" >&2; exit 1; }
  echo "$tps $qps"
}

row() { printf '%-20s %-28s %6s %12.2f %12.2f %8.3f\n' "$1" "$2" "$3" "$4" "$5" "$(echo "$5 $4" | awk '{print $1 / $2}')" \
  | tee -a "$OUT/summary.txt"; }

printf '%-20s %-28s %6s %12s %12s %8s\n' workload tool load tps qps 'q/tx' | tee "$OUT/summary.txt"
for w in "${WORKLOADS[@]}"; do
  # sysbench before and after every tailstream run: S T1 S T2 S ... ; each T is divided by the mean of its neighbours
  l=$(load)
  read -r prev prevq < <(run_sysbench "$w" "$OUT/$w.sysbench.0.log")
  row "$w" sysbench "$l" "$prev" "$prevq"
  i=0
  for m in $MODES; do
    i=$((i + 1))
    mode=${m%%:*} driver=${m##*:}
    l=$(load)
    run_tailstream "$w" "$mode" "$driver" "$OUT/$w.tailstream-$mode-$driver.log"
    read -r tps qps < <(jq -r '.steps[0] | "\(.tps) \(.qps)"' "$OUT/$w.tailstream-$mode-$driver.log.json")
    row "$w" "tailstream $mode $driver" "$l" "$tps" "$qps"
    l=$(load)
    read -r next nextq < <(run_sysbench "$w" "$OUT/$w.sysbench.$i.log")
    row "$w" sysbench "$l" "$next" "$nextq"
    echo "$prev $tps $next $prevq $qps" | awk -v w="$w" -v m="$m" '{
        printf "%-20s %-28s TPS ratio %.3f (sysbench %.0f / %.0f); q/tx sysbench %.3f, tailstream %.3f\n",
               w, m, $2 / (($1 + $3) / 2), $1, $3, $4 / $1, $5 / $2 }' | tee -a "$OUT/summary.txt"
    prev=$next prevq=$nextq
  done
done
echo "logs in $OUT" >&2
