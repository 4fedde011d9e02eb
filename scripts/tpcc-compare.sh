#!/usr/bin/env bash
# Side by side: Percona's sysbench-tpcc (Lua scripts for sysbench 1.0) and tailstream's tpcc on the same
# MySQL/MariaDB, same warehouses, threads and duration, alternated S T S T S. Each kit loads its own tables
# (sysbench-tpcc: warehouse1, district1, ...; tailstream: warehouse, district, ...). The figure compared is the
# New-Order throughput each run committed, read from the database: the districts' D_NEXT_O_ID before and after the
# run, per minute of the run. Both kits run without warm-up here (sysbench has none), so both are counted from their
# first transaction. sysbench-tpcc runs with its defaults (REPEATABLE READ) but without foreign keys (--use_fk=0),
# as tailstream's schema has none.
#
# Usage (from the repository root, after `./mvnw -pl cli -am package -DskipTests`):
#   git clone https://github.com/Percona-Lab/sysbench-tpcc /path/to/sysbench-tpcc
#   export TAILSTREAM_MYSQL_PASSWORD=...            # read from the environment, never from the command line
#   SYSBENCH_TPCC=/path/to/sysbench-tpcc scripts/tpcc-compare.sh
#
# Settings (environment, defaults in brackets): SYSBENCH_TPCC (required: the folder of tpcc.lua), MYSQL_HOST
# [127.0.0.1], MYSQL_PORT [3306], MYSQL_USER [tailstream], MYSQL_DB [tailstream_test], WAREHOUSES [2], THREADS [8],
# DURATION seconds [60], PAIRS [2], PREPARE [1] (0: reuse both kits' loaded tables), MODE [pipeline]: the tailstream
# run, pipeline (the default run with its local pipeline) or no-emit (the load generator alone), DRIVER [mariadb]:
# jdbc:mariadb: or jdbc:mysql:, URL_PARAMS [none]: parameters of tailstream's JDBC URL (useServerPrepStmts=false sends
# every statement as text, as sysbench-tpcc does), JAR [cli/target/tailstream-all.jar], OUT [a new temporary folder].
set -euo pipefail

: "${SYSBENCH_TPCC:?set SYSBENCH_TPCC to a checkout of https://github.com/Percona-Lab/sysbench-tpcc}"
[ -f "$SYSBENCH_TPCC/tpcc.lua" ] || { echo "no tpcc.lua in $SYSBENCH_TPCC" >&2; exit 2; }
WAREHOUSES=${WAREHOUSES:-2}
DURATION=${DURATION:-60}
PAIRS=${PAIRS:-2}
MODE=${MODE:-pipeline}
DRIVER=${DRIVER:-mariadb}
case "$MODE" in pipeline | no-emit) ;; *) echo "MODE must be pipeline or no-emit, was $MODE" >&2; exit 2 ;; esac
# shellcheck source=lib/mysql-runs.sh
. "$(dirname "$0")/lib/mysql-runs.sh"
command -v sysbench >/dev/null || { echo "sysbench not found (Debian package sysbench)" >&2; exit 2; }
command -v mariadb >/dev/null || command -v mysql >/dev/null || { echo "no mariadb/mysql client" >&2; exit 2; }

OUT=${OUT:-$(mktemp -d -t tpcc-compare.XXXXXX)}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
# the password goes to sysbench and the client through private options files, not their command lines
CONF="$OUT/sysbench.conf"
CNF="$OUT/client.cnf"
(umask 077; printf 'mysql-password=%s\n' "$TAILSTREAM_MYSQL_PASSWORD" > "$CONF"
  printf '[client]\npassword=%s\n' "$TAILSTREAM_MYSQL_PASSWORD" > "$CNF")
trap 'rm -f "$CONF" "$CNF"' EXIT
CLIENT=$(command -v mariadb || command -v mysql)
sql() {
  "$CLIENT" --defaults-extra-file="$CNF" -h "$MYSQL_HOST" -P "$MYSQL_PORT" -u "$MYSQL_USER" -N -B "$MYSQL_DB" -e "$1"
}

SB=(--config-file="$CONF" --db-driver=mysql --mysql-host="$MYSQL_HOST" --mysql-port="$MYSQL_PORT"
  --mysql-user="$MYSQL_USER" --mysql-db="$MYSQL_DB" --scale="$WAREHOUSES" --tables=1 --use_fk=0)
URL_PARAMS=${URL_PARAMS:-}
TS=(--url "jdbc:$DRIVER://$MYSQL_HOST:$MYSQL_PORT/$MYSQL_DB${URL_PARAMS:+?$URL_PARAMS}" --user "$MYSQL_USER"
  --password-env TAILSTREAM_MYSQL_PASSWORD --workload tpcc --warehouses "$WAREHOUSES")

if [ "$PREPARE" = 1 ]; then
  echo "loading $WAREHOUSES warehouse(s) with each kit" >&2
  (cd "$SYSBENCH_TPCC" && sysbench tpcc.lua "${SB[@]}" cleanup &&
    sysbench tpcc.lua "${SB[@]}" --threads="$WAREHOUSES" prepare) > "$OUT/prepare-sysbench.log" 2>&1
  java -jar "$JAR" prepare "${TS[@]}" > "$OUT/prepare-tailstream.log" 2>&1
fi

# committed New-Orders so far in the table DISTRICT (the districts' next order ids less the 3,001 they were loaded with)
new_orders() { sql "SELECT SUM(d_next_o_id) FROM $1"; }

# prints the New-Orders per minute of one run; KIT is sysbench or tailstream
run_one() {
  local kit=$1 log=$2 table before after
  if [ "$kit" = sysbench ]; then table=district1; else table=district; fi
  before=$(new_orders "$table")
  if [ "$kit" = sysbench ]; then
    (cd "$SYSBENCH_TPCC" &&
      sysbench tpcc.lua "${SB[@]}" --threads="$THREADS" --time="$DURATION" --report-interval=0 run) > "$log" 2>&1
  else
    local extra=(--out "$log.out")
    [ "$MODE" = no-emit ] && extra=(--no-emit)
    java -jar "$JAR" run "${TS[@]}" --threads "$THREADS" --warmup 0s --duration "${DURATION}s" \
      --report-interval 0 "${extra[@]}" > "$log" 2>&1
  fi
  after=$(new_orders "$table")
  echo "$before $after" | awk -v d="$DURATION" '{ printf "%.1f\n", ($2 - $1) * 60 / d }'
}

printf '%-24s %6s %14s\n' kit load 'new-orders/min' | tee "$OUT/summary.txt"
l=$(load)
prev=$(run_one sysbench "$OUT/sysbench.0.log")
printf '%-24s %6s %14.1f\n' sysbench-tpcc "$l" "$prev" | tee -a "$OUT/summary.txt"
for i in $(seq "$PAIRS"); do
  l=$(load)
  t=$(run_one tailstream "$OUT/tailstream.$i.log")
  printf '%-24s %6s %14.1f\n' "tailstream $MODE $DRIVER${URL_PARAMS:+ $URL_PARAMS}" "$l" "$t" | tee -a "$OUT/summary.txt"
  l=$(load)
  next=$(run_one sysbench "$OUT/sysbench.$i.log")
  printf '%-24s %6s %14.1f\n' sysbench-tpcc "$l" "$next" | tee -a "$OUT/summary.txt"
  echo "$prev $t $next" | awk '{ printf "tailstream / sysbench-tpcc %.3f (sysbench-tpcc %.0f and %.0f around it)\n",
      $2 / (($1 + $3) / 2), $1, $3 }' | tee -a "$OUT/summary.txt"
  prev=$next
done
echo "logs in $OUT" >&2
