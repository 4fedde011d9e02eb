# Shared by the scripts that alternate tailstream runs with other runs on one MySQL/MariaDB server: the settings
# both take from the environment (defaults in brackets in each script's header), the checks before the first run,
# and one tailstream run. Sourced, not run.

MYSQL_HOST=${MYSQL_HOST:-127.0.0.1}
MYSQL_PORT=${MYSQL_PORT:-3306}
MYSQL_USER=${MYSQL_USER:-tailstream}
MYSQL_DB=${MYSQL_DB:-tailstream_test}
TABLES=${TABLES:-8}
TABLE_SIZE=${TABLE_SIZE:-10000}
THREADS=${THREADS:-8}
DURATION=${DURATION:-20}
PREPARE=${PREPARE:-1}
JAR=${JAR:-cli/target/tailstream-all.jar}

: "${TAILSTREAM_MYSQL_PASSWORD:?set TAILSTREAM_MYSQL_PASSWORD to the password of $MYSQL_USER}"
command -v jq >/dev/null || { echo "jq not found" >&2; exit 2; }
[ -f "$JAR" ] || { echo "$JAR missing: run ./mvnw -pl cli -am package -DskipTests" >&2; exit 2; }

# the 1-minute load average, printed before each run so that a noisy run can be seen
load() { cut -d' ' -f1 /proc/loadavg; }

# tailstream DRIVER COMMAND [OPTION ...]: a tailstream command against the server's tables through DRIVER (mariadb:
# MariaDB Connector/J, mysql: MySQL Connector/J), the password read from the environment
tailstream() {
  local driver=$1
  shift
  # shellcheck disable=SC2086 # word splitting of the JVM options is intended
  java ${TAILSTREAM_JAVA_OPTS:-} -jar "$JAR" "$@" --url "jdbc:$driver://$MYSQL_HOST:$MYSQL_PORT/$MYSQL_DB" \
    --user "$MYSQL_USER" --password-env TAILSTREAM_MYSQL_PASSWORD --tables "$TABLES" --table-size "$TABLE_SIZE"
}

# run_tailstream WORKLOAD MODE DRIVER LOG: one run of WARMUP + DURATION seconds, MODE no-emit (the load generator
# alone), pipeline (the default run with its local pipeline) or live (the same with --live: its aggregator during the
# load); its --json document in LOG.json, its stderr in LOG
run_tailstream() {
  local w=$1 mode=$2 driver=$3 log=$4
  local extra=(--out "$log.out")
  [ "$mode" = no-emit ] && extra=(--no-emit)
  [ "$mode" = live ] && extra+=(--live)
  tailstream "$driver" run --workload "$w" --threads "$THREADS" --warmup "${WARMUP}s" --duration "${DURATION}s" \
    --report-interval 0 --json "${extra[@]}" > "$log.json" 2> "$log"
}
