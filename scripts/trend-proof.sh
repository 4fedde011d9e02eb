#!/usr/bin/env bash
# A history with one deliberate change, to check `trend` on real runs: RUNS_BEFORE default runs (`run` with its local
# pipeline, one shared archive) with a server variable at FROM, then RUNS_AFTER with it at TO, nothing else changed.
# The archive of the runs before the change is copied first: it is an A/A history (the same setup every run).
# Prints `trend` over both archives; the variable is set back to its value before the script at the end.
#
# Usage (from the repository root, after `./mvnw -pl cli -am package -DskipTests`):
#   export TAILSTREAM_MYSQL_PASSWORD=...            # read from the environment, never from the command line
#   scripts/trend-proof.sh
#
# Settings (environment, defaults in brackets): MYSQL_HOST [127.0.0.1], MYSQL_PORT [3306], MYSQL_USER [tailstream],
# MYSQL_DB [tailstream_test], TABLES [4], TABLE_SIZE [10000], THREADS [4], WARMUP seconds [5], DURATION seconds
# [10], WORKLOAD [oltp_write_only], DRIVER [mariadb], RUNS_BEFORE [25], RUNS_AFTER [25], VARIABLE
# [innodb_flush_log_at_trx_commit], FROM [1], TO [2], SET_GLOBAL [mariadb -e]: the client that runs
# `SET GLOBAL VARIABLE = value` with the privilege to (root over the socket by default), PREPARE [1], JAR
# [cli/target/tailstream-all.jar], OUT [a new temporary folder: archive/, aa-archive/, logs].
set -euo pipefail

TABLES=${TABLES:-4}
THREADS=${THREADS:-4}
WARMUP=${WARMUP:-5}
DURATION=${DURATION:-10}
WORKLOAD=${WORKLOAD:-oltp_write_only}
DRIVER=${DRIVER:-mariadb}
RUNS_BEFORE=${RUNS_BEFORE:-25}
RUNS_AFTER=${RUNS_AFTER:-25}
VARIABLE=${VARIABLE:-innodb_flush_log_at_trx_commit}
FROM=${FROM:-1}
TO=${TO:-2}
SET_GLOBAL=${SET_GLOBAL:-mariadb -e}
# shellcheck source=lib/mysql-runs.sh
. "$(dirname "$0")/lib/mysql-runs.sh"

OUT=${OUT:-$(mktemp -d -t trend-proof.XXXXXX)}
mkdir -p "$OUT/logs"

set_variable() {
  # shellcheck disable=SC2086 # the client command is words
  $SET_GLOBAL "SET GLOBAL $VARIABLE = $1"
}
# shellcheck disable=SC2086
original=$($SET_GLOBAL "SELECT @@GLOBAL.$VARIABLE" -N -B)
trap 'set_variable "$original"' EXIT

if [ "$PREPARE" = 1 ]; then
  echo "loading $TABLES x $TABLE_SIZE rows (tailstream prepare)" >&2
  tailstream "$DRIVER" cleanup --workload "$WORKLOAD" > "$OUT/logs/prepare.log" 2>&1
  tailstream "$DRIVER" prepare --workload "$WORKLOAD" --quiet >> "$OUT/logs/prepare.log" 2>&1
fi

one_run() {
  local n=$1
  printf 'run %2d  %s = %s  load %s  ' "$n" "$VARIABLE" "$(set_variable_value)" "$(load)" >&2
  tailstream "$DRIVER" run --workload "$WORKLOAD" --threads "$THREADS" --warmup "${WARMUP}s" \
    --duration "${DURATION}s" --report-interval 0 --json --out "$OUT" > "$OUT/logs/run-$n.json" \
    2> "$OUT/logs/run-$n.log"
  jq -r '.steps[0] | "tps \(.tps)"' "$OUT/logs/run-$n.json" >&2
}
# shellcheck disable=SC2086
set_variable_value() { $SET_GLOBAL "SELECT @@GLOBAL.$VARIABLE" -N -B; }

set_variable "$FROM"
for n in $(seq 1 "$RUNS_BEFORE"); do one_run "$n"; done
cp -r "$OUT/archive" "$OUT/aa-archive"
set_variable "$TO"
for n in $(seq $((RUNS_BEFORE + 1)) $((RUNS_BEFORE + RUNS_AFTER))); do one_run "$n"; done

echo "== A/A: $RUNS_BEFORE runs, $VARIABLE = $FROM throughout"
java -jar "$JAR" trend --archive "$OUT/aa-archive"
echo "== $RUNS_BEFORE runs at $VARIABLE = $FROM, then $RUNS_AFTER at $TO"
java -jar "$JAR" trend --archive "$OUT/archive"
echo "archives, logs: $OUT" >&2
