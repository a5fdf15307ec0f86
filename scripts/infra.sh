#!/usr/bin/env bash
# Local infrastructure without Docker: Kafka (KRaft, from Maven Central jars),
# the MongoDB-wire store (DocumentDB on PostgreSQL 15, built once per machine from
# ../shared/vendor) and Redis, plus the Chromium that renders PDFs. Installs what
# is missing on first use, starts every time.
#
#   bash scripts/infra.sh up [svc...]       install if needed, start, wait until ready
#   bash scripts/infra.sh down [svc...]     stop what `up` started (pid files only)
#   bash scripts/infra.sh start <svc...>    same as up, for the named services
#   bash scripts/infra.sh stop <svc...>     same as down, for the named services
#   bash scripts/infra.sh restart <svc...>  stop, then start
#   bash scripts/infra.sh status            one line per service; exit 3 if one is down
#   bash scripts/infra.sh install [svc...]  install only, start nothing
#   bash scripts/infra.sh logs <svc> [n]    last n (default 60) lines of the service log
#
# Services: kafka, postgres, documentdb (alias mongo: the wire gateway), redis;
# chromium (install/check only). `up`/`down` without names handle all of them.
# State lives under <repo>/.data (git-ignored): data in .data/<svc>, logs in
# .data/logs/<svc>.log, pid files in .data/pids/<svc>.pid, tools in .data/tools.
# A second set beside the first (scripts/test.sh runs the outage tests on one):
#   INFRA_DATA_DIR=<dir> INFRA_TOOLS_DIR=<tools> INFRA_KAFKA_PORT=9192 INFRA_KAFKA_CONTROLLER_PORT=9193 \
#   INFRA_REDIS_PORT=6380 bash scripts/infra.sh up kafka redis
# See infra/README.md.
set -Eeuo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA="${INFRA_DATA_DIR:-$ROOT/.data}"
TOOLS="${INFRA_TOOLS_DIR:-$DATA/tools}"
LOGS="$DATA/logs"
PIDS="$DATA/pids"

KAFKA_VERSION="3.9.1"
KAFKA_HOST=127.0.0.1
KAFKA_PORT="${INFRA_KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${INFRA_KAFKA_CONTROLLER_PORT:-9093}"
KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms256m -Xmx768m}"


REDIS_HOST=127.0.0.1
REDIS_PORT="${INFRA_REDIS_PORT:-6379}"
REDIS_START_TIMEOUT="${REDIS_START_TIMEOUT:-15}"

# Debian's headless-only chromium (the binary, not /usr/bin's wrapper script, so signals reach the browser); the
# same default as CHROMIUM_PATH in services/platform/src/config.ts
CHROMIUM_BIN="${CHROMIUM_PATH:-/usr/lib/chromium/chromium-headless-shell}"

ALL_SERVICES=(redis postgres documentdb kafka)

# ---------------------------------------------------------------------------
# output helpers

log() { printf '[infra] %s\n' "$*"; }
warn() { printf '[infra] WARNING: %s\n' "$*" >&2; }
err() { printf '[infra] ERROR: %s\n' "$*" >&2; }
die() {
  err "$*"
  exit 1
}
rel() { # path relative to the repo root, for messages
  case "$1" in "$ROOT"/*) printf '%s' "${1#"$ROOT"/}" ;; *) printf '%s' "$1" ;; esac
}
show_log_tail() { # file [lines]
  local f="$1" n="${2:-30}"
  if [[ -s "$f" ]]; then
    printf '[infra] ---- last %s lines of %s ----\n' "$n" "$(rel "$f")" >&2
    tail -n "$n" "$f" | sed 's/^/  | /' >&2
    printf '[infra] ---- end of %s ----\n' "$(rel "$f")" >&2
  fi
}

# ---------------------------------------------------------------------------
# generic helpers

have() { command -v "$1" >/dev/null 2>&1; }

tcp_open() { # host port -> 0 when something accepts a TCP connection
  local host="$1" port="$2"
  if have timeout; then
    timeout 2 bash -c "exec 3<>/dev/tcp/$host/$port" >/dev/null 2>&1
  else
    bash -c "exec 3<>/dev/tcp/$host/$port" >/dev/null 2>&1
  fi
}

as_root() {
  if [[ $EUID -eq 0 ]]; then
    "$@"
  elif have sudo && sudo -n true 2>/dev/null; then
    sudo -n "$@"
  else
    return 126
  fi
}

apt_install() { # pkg... (Debian/Ubuntu); output goes to .data/logs/install-apt.log
  local logf="$LOGS/install-apt.log"
  if ! have apt-get; then
    err "apt-get not found; install these packages yourself: $*"
    return 1
  fi
  if [[ $EUID -ne 0 ]] && ! (have sudo && sudo -n true 2>/dev/null); then
    err "need root (or password-less sudo) to run: apt-get install -y $*"
    return 1
  fi
  log "apt: installing $* (output in $(rel "$logf"))..."
  export DEBIAN_FRONTEND=noninteractive
  if as_root apt-get install -y --no-install-recommends "$@" >>"$logf" 2>&1; then
    return 0
  fi
  log "apt: install failed; running apt-get update and retrying..."
  if as_root apt-get update >>"$logf" 2>&1 && as_root apt-get install -y --no-install-recommends "$@" >>"$logf" 2>&1; then
    return 0
  fi
  err "apt-get install $* failed"
  show_log_tail "$logf" 20
  return 1
}

dpkg_installed() { # pkg -> 0 when installed (dpkg systems only)
  have dpkg-query && [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" == "install ok installed" ]]
}

# Launch a daemon in its own session so it outlives this shell; the pid file
# gets the pid of the real process (the bash wrapper execs it). fd 9 (our lock)
# is closed so a long-lived daemon never holds the lock.
launch() { # svc logfile cmd...
  local svc="$1" logf="$2"
  shift 2
  local pidf="$PIDS/$svc.pid"
  rm -f "$pidf"
  # shellcheck disable=SC2016 # $$ and "$@" expand in the child bash
  if have setsid; then
    setsid bash -c 'echo $$ >"$0"; exec "$@"' "$pidf" "$@" >>"$logf" 2>&1 </dev/null 9>&- &
  else
    # shellcheck disable=SC2016
    nohup bash -c 'echo $$ >"$0"; exec "$@"' "$pidf" "$@" >>"$logf" 2>&1 </dev/null 9>&- &
  fi
  local i
  for i in $(seq 1 50); do
    [[ -s "$pidf" ]] && return 0
    sleep 0.1
  done
  err "$svc: could not record its pid in $(rel "$pidf")"
  return 1
}

# What a live process of ours looks like (guards against pid reuse after a reboot).
pid_signature() {
  case "$1" in
    kafka) echo "kafka.Kafka" ;;
    postgres) echo "bin/postgres" ;;
    documentdb) echo "documentdb_gateway" ;;
    redis) echo "redis-server" ;;
  esac
}

# 0 when pid is a live process (a zombie, killed but not yet reaped by its
# parent or init, counts as gone).
alive() {
  local stat
  kill -0 "$1" 2>/dev/null || return 1
  stat="$(ps -o stat= -p "$1" 2>/dev/null || true)"
  [[ -n "$stat" && "$stat" != Z* ]]
}

# Prints the pid of our running process for svc, or nothing. Removes stale pid files.
our_pid() {
  local svc="$1" pidf="$PIDS/$1.pid" pid args
  [[ -f "$pidf" ]] || return 0
  pid="$(tr -dc '0-9' <"$pidf" 2>/dev/null || true)"
  if [[ -n "$pid" ]] && alive "$pid"; then
    args="$(ps -o args= -p "$pid" 2>/dev/null || true)"
    # a process in the middle of its exec (launch's bash becoming the service) may show no arguments for a
    # moment: look again before calling its pid stale (a gateway once ran on while start-up said it had exited)
    [[ -n "$args" ]] || { sleep 0.2; args="$(ps -o args= -p "$pid" 2>/dev/null || true)"; }
    if [[ "$args" == *"$(pid_signature "$svc")"* ]]; then
      echo "$pid"
      return 0
    fi
  fi
  rm -f "$pidf" # stale (process gone, or the pid now belongs to something else)
}

rotate_log() { # keep one previous run as <svc>.log.1
  local f="$1"
  if [[ -s "$f" ]]; then mv -f "$f" "$f.1"; fi
  : >"$f"
}

# ---------------------------------------------------------------------------
# external endpoints: MONGO_URL / KAFKA_BROKERS / REDIS_URL
#
# A service is "external" when its variable is set and names another host:port
# than the local one this script manages. (If it names 127.0.0.1/localhost on
# the standard port, this script still manages that local service.)

env_var_of() {
  case "$1" in
    kafka) echo KAFKA_BROKERS ;;
    documentdb) echo MONGO_URL ;;
    postgres) echo MONGO_URL ;;
    redis) echo REDIS_URL ;;
  esac
}
local_endpoint() {
  case "$1" in
    kafka) echo "$KAFKA_HOST:$KAFKA_PORT" ;;
    documentdb) echo "$DOCUMENTDB_HOST:$DOCUMENTDB_PORT" ;;
    postgres) echo "$PG_HOST:$PG_PORT" ;;
    redis) echo "$REDIS_HOST:$REDIS_PORT" ;;
  esac
}

# host:port named by the service's variable ("" when unset; "srv" for mongodb+srv)
env_endpoint() {
  local svc="$1" var val hostport defport
  var="$(env_var_of "$svc")"
  val="${!var:-}"
  [[ -n "$val" ]] || return 0
  case "$svc" in
    kafka) defport=9092 ;;
    documentdb | postgres) defport=27017 ;;
    redis) defport=6379 ;;
  esac
  if [[ "$val" == mongodb+srv://* ]]; then
    echo srv
    return 0
  fi
  hostport="${val#*://}"     # drop the scheme
  hostport="${hostport%%,*}" # first host of a list
  hostport="${hostport%%/*}" # drop path
  hostport="${hostport%%\?*}"
  hostport="${hostport##*@}" # drop credentials
  [[ "$hostport" == *:* ]] || hostport="$hostport:$defport"
  echo "$hostport"
}

endpoint_host() { local e; e="$(local_endpoint "$1")"; echo "${e%:*}"; }
endpoint_port() { local e; e="$(local_endpoint "$1")"; echo "${e##*:}"; }

normalize_endpoint() { # localhost/::1/0.0.0.0 -> 127.0.0.1
  local hp="$1" host port
  host="${hp%:*}"
  port="${hp##*:}"
  case "$host" in localhost | 0.0.0.0 | "[::1]" | ::1) host=127.0.0.1 ;; esac
  echo "$host:$port"
}

is_external() {
  local svc="$1" ep
  ep="$(env_endpoint "$svc")"
  [[ -n "$ep" ]] || return 1
  # postgres is the local store's own database: external whenever MONGO_URL names another store
  [[ "$svc" == postgres ]] && svc=documentdb
  [[ "$(normalize_endpoint "$ep")" != "$(local_endpoint "$svc")" ]]
}

masked_env() { # VAR=value with any password hidden
  local var val
  var="$(env_var_of "$1")"
  val="${!var:-}"
  # shellcheck disable=SC2001
  val="$(sed -E 's#(://[^:/@]*:)[^@/]*@#\1***@#' <<<"$val")"
  echo "$var=$val"
}

# ---------------------------------------------------------------------------
# prerequisites: Java + Maven (Kafka)

java_major() {
  have java || return 1
  java -version 2>&1 | awk -F'"' '/version/ {split($2, v, "."); print (v[1] == "1" ? v[2] : v[1]); exit}'
}

ensure_java() {
  local major
  major="$(java_major || true)"
  if [[ -n "$major" && "$major" -ge 11 ]]; then return 0; fi
  log "kafka: Java >= 11 not found; installing a JRE with apt..."
  apt_install default-jre-headless || return 1
  major="$(java_major || true)"
  [[ -n "$major" && "$major" -ge 11 ]] || {
    err "java >= 11 still not on PATH"
    return 1
  }
}

ensure_maven() {
  have mvn && return 0
  log "kafka: Maven not found; installing it with apt..."
  apt_install maven
}

# ---------------------------------------------------------------------------
# Kafka

KAFKA_DIR="$DATA/kafka"
KAFKA_CONF="$KAFKA_DIR/server.properties"
KAFKA_LOG="$LOGS/kafka.log"
KAFKA_TOOLS="$TOOLS/kafka-$KAFKA_VERSION"
KAFKA_CP_FILE="$KAFKA_TOOLS/classpath.txt"
KAFKA_POM="$ROOT/infra/kafka/pom.xml"
KAFKA_LOG4J="$ROOT/infra/kafka/log4j.properties"

file_sha() { sha256sum "$1" 2>/dev/null | cut -d' ' -f1 || cksum "$1" | cut -d' ' -f1; }

kafka_installed() {
  [[ -s "$KAFKA_CP_FILE" && -f "$KAFKA_TOOLS/pom.sha" ]] || return 1
  [[ "$(cat "$KAFKA_TOOLS/pom.sha")" == "$(file_sha "$KAFKA_POM")" ]] || return 1
  local jar jars
  IFS=":" read -r -a jars <"$KAFKA_CP_FILE" || true
  for jar in "${jars[@]}"; do
    [[ -f "$jar" ]] || return 1
  done
  have java
}

install_kafka() {
  if kafka_installed; then return 0; fi
  if install_failed_already kafka; then return 1; fi
  ensure_java || return 1
  ensure_maven || return 1
  mkdir -p "$KAFKA_TOOLS"
  local logf="$LOGS/install-kafka.log" t0=$SECONDS
  log "kafka: resolving Kafka $KAFKA_VERSION jars with Maven (first time, ~1 min; output in $(rel "$logf"))..."
  if ! mvn -B -q -Dstyle.color=never -f "$KAFKA_POM" \
    dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile="$KAFKA_CP_FILE.tmp" >"$logf" 2>&1; then
    err "kafka: Maven could not resolve the broker's jars (is Maven Central reachable?)"
    show_log_tail "$logf" 30
    return 1
  fi
  mv -f "$KAFKA_CP_FILE.tmp" "$KAFKA_CP_FILE"
  file_sha "$KAFKA_POM" >"$KAFKA_TOOLS/pom.sha"
  log "kafka: $(tr ':' '\n' <"$KAFKA_CP_FILE" | wc -l | tr -d ' ') jars resolved (local Maven repository) in $((SECONDS - t0)) s"
}

# The JVM command line of the broker and of its tools (classpath + logging).
kafka_java_cmd() { # heap-opts -> sets KAFKA_CMD
  # shellcheck disable=SC2206
  KAFKA_CMD=(java $1
    -server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35
    -XX:+ExplicitGCInvokesConcurrent -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true
    "-Dlog4j.configuration=file:$KAFKA_LOG4J" "-Dkafka.logs.dir=$LOGS"
    -cp "$(cat "$KAFKA_CP_FILE")")
}

kafka_tool() { # main-class args... (small heap, for StorageTool)
  kafka_java_cmd "-Xmx256m"
  "${KAFKA_CMD[@]}" "$@"
}

kafka_prepare() {
  mkdir -p "$KAFKA_DIR/data"
  # render the template with this checkout's absolute data path
  sed -e "s#@KAFKA_DATA_DIR@#$KAFKA_DIR#g" -e "s#@KAFKA_PORT@#$KAFKA_PORT#g" \
    -e "s#@KAFKA_CONTROLLER_PORT@#$KAFKA_CONTROLLER_PORT#g" "$ROOT/infra/kafka/server.properties" >"$KAFKA_CONF.tmp"
  mv -f "$KAFKA_CONF.tmp" "$KAFKA_CONF"
  [[ -f "$KAFKA_DIR/data/meta.properties" ]] && return 0

  local id="" logf="$LOGS/install-kafka.log"
  [[ -s "$KAFKA_DIR/cluster-id" ]] && id="$(tr -d '[:space:]' <"$KAFKA_DIR/cluster-id")"
  if [[ ! "$id" =~ ^[A-Za-z0-9_-]{22}$ ]]; then
    id="$(kafka_tool kafka.tools.StorageTool random-uuid 2>>"$logf" | tail -n 1 | tr -d '[:space:]')"
    [[ "$id" =~ ^[A-Za-z0-9_-]{22}$ ]] || {
      err "kafka: could not generate a cluster id (see $(rel "$logf"))"
      return 1
    }
    echo "$id" >"$KAFKA_DIR/cluster-id"
  fi
  log "kafka: formatting KRaft storage in $(rel "$KAFKA_DIR/data") (cluster id $id)..."
  if ! kafka_tool kafka.tools.StorageTool format -t "$id" -c "$KAFKA_CONF" --ignore-formatted >>"$logf" 2>&1; then
    err "kafka: storage format failed"
    show_log_tail "$logf" 20
    return 1
  fi
}

kafka_ready() {
  tcp_open "$KAFKA_HOST" "$KAFKA_PORT" && grep -q "Kafka Server started" "$KAFKA_LOG" 2>/dev/null
}

start_kafka() {
  install_kafka || return 1
  kafka_prepare || return 1
  if tcp_open "$KAFKA_HOST" "$KAFKA_CONTROLLER_PORT"; then
    err "kafka: port $KAFKA_CONTROLLER_PORT (KRaft controller) is already taken by another process"
    return 1
  fi
  rotate_log "$KAFKA_LOG"
  log "kafka: starting broker+controller on $KAFKA_HOST:$KAFKA_PORT (log $(rel "$KAFKA_LOG"))..."
  kafka_java_cmd "$KAFKA_HEAP_OPTS"
  launch kafka "$KAFKA_LOG" "${KAFKA_CMD[@]}" kafka.Kafka "$KAFKA_CONF"
}

# ---------------------------------------------------------------------------
# The store: PostgreSQL 15 + DocumentDB + its MongoDB wire gateway (infra/documentdb/store.sh)

# shellcheck source=../infra/documentdb/store.sh
source "$ROOT/infra/documentdb/store.sh"

# ---------------------------------------------------------------------------
# Redis

REDIS_DIR="$DATA/redis"
REDIS_LOG="$LOGS/redis.log"

install_redis() {
  have redis-server && have redis-cli && return 0
  log "redis: redis-server not found; installing it with apt..."
  apt_install redis-server redis-tools
  # Note: on hosts with systemd the Debian package also starts a system-wide
  # redis on 6379; `up` then finds 6379 taken and uses that one.
}

start_redis() {
  install_redis || return 1
  mkdir -p "$REDIS_DIR"
  rotate_log "$REDIS_LOG"
  log "redis: starting $(redis_version) on $REDIS_HOST:$REDIS_PORT (data in $(rel "$REDIS_DIR"))..."
  # Queued jobs (billing submissions, manifests, TRF PDFs) must survive a restart or a crash: the append-only
  # file, fsynced every second (BullMQ's production guide; docker-compose.yml runs Redis the same way), plus the
  # default RDB snapshots into .data/redis. What a crash loses in its last second, the services' requeue sweeps
  # add back (deterministic job ids).
  launch redis "$REDIS_LOG" redis-server \
    --bind "$REDIS_HOST" --port "$REDIS_PORT" --protected-mode yes \
    --daemonize no --logfile "" \
    --dir "$REDIS_DIR" --dbfilename dump.rdb --appendonly yes --appendfsync everysec \
    --maxmemory-policy noeviction
}

redis_version() { redis-server --version 2>/dev/null | awk '{print $3}' | sed 's/^v=//'; }

redis_ready() { [[ "$(redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" ping 2>/dev/null || true)" == "PONG" ]]; }

# ---------------------------------------------------------------------------
# Chromium (PDF rendering) + fonts + pdftotext (tests)

chromium_missing_pkgs() {
  local missing=()
  [[ -x "$CHROMIUM_BIN" ]] || missing+=(chromium-headless-shell)
  have pdftotext || missing+=(poppler-utils)
  if have dpkg-query; then
    dpkg_installed fonts-liberation || missing+=(fonts-liberation)
    dpkg_installed fonts-dejavu-core || missing+=(fonts-dejavu-core)
    # Simplified Chinese for the console in Chinese (browser tests, screenshots) and Chinese names on PDFs
    dpkg_installed fonts-wqy-microhei || missing+=(fonts-wqy-microhei)
  fi
  echo "${missing[*]:-}"
}

install_chromium() {
  local missing
  missing="$(chromium_missing_pkgs)"
  [[ -n "$missing" ]] || return 0
  log "chromium: missing $missing (first time, ~1 min)..."
  # shellcheck disable=SC2086
  apt_install $missing || return 1
  if [[ ! -x "$CHROMIUM_BIN" ]]; then
    err "chromium: $CHROMIUM_BIN still missing after apt install (set CHROMIUM_PATH if it lives elsewhere)"
    return 1
  fi
}

chromium_version() { "$CHROMIUM_BIN" --version 2>/dev/null | head -n1 || true; }

# ---------------------------------------------------------------------------
# per-service dispatch

svc_ready() { "${1}_ready"; }
svc_log() {
  case "$1" in
    kafka) echo "$KAFKA_LOG" ;;
    postgres) echo "$PG_LOG" ;;
    documentdb) echo "$DOCUMENTDB_LOG" ;;
    redis) echo "$REDIS_LOG" ;;
  esac
}
svc_timeout() {
  case "$1" in
    kafka) echo "$KAFKA_START_TIMEOUT" ;;
    postgres) echo "$PG_START_TIMEOUT" ;;
    documentdb) echo "$DOCUMENTDB_START_TIMEOUT" ;;
    redis) echo "$REDIS_START_TIMEOUT" ;;
  esac
}

wait_ready() { # svc -> 0 when ready before the timeout
  local svc="$1" timeout pid deadline logf t0=$SECONDS
  timeout="$(svc_timeout "$svc")"
  logf="$(svc_log "$svc")"
  deadline=$((SECONDS + timeout))
  while ((SECONDS < deadline)); do
    if svc_ready "$svc"; then
      log "$svc: ready on $(local_endpoint "$svc") (pid $(our_pid "$svc"), $((SECONDS - t0)) s)"
      return 0
    fi
    pid="$(our_pid "$svc")"
    if [[ -z "$pid" ]]; then
      err "$svc: the process exited during start-up"
      show_log_tail "$logf" 40
      err "$svc: full log: $(rel "$logf")"
      return 1
    fi
    sleep 0.5
  done
  err "$svc: not ready on $(local_endpoint "$svc") after ${timeout} s (still running as pid $(our_pid "$svc"))"
  show_log_tail "$logf" 40
  err "$svc: full log: $(rel "$logf")"
  return 1
}

# Start one service unless it is external, already ours, or the port is taken.
up_one() {
  local svc="$1" pid ep host port
  if is_external "$svc"; then
    ep="$(env_endpoint "$svc")"
    if [[ "$ep" == srv ]]; then
      log "$svc: external ($(masked_env "$svc")), not started here"
    elif tcp_open "${ep%:*}" "${ep##*:}"; then
      log "$svc: external ($(masked_env "$svc")), reachable, not started here"
    else
      warn "$svc: external ($(masked_env "$svc")) but $ep does not answer; not started here"
    fi
    return 0
  fi
  ep="$(local_endpoint "$svc")"
  host="${ep%:*}"
  port="${ep##*:}"
  pid="$(our_pid "$svc")"
  if [[ -n "$pid" ]]; then
    if svc_ready "$svc"; then
      log "$svc: already running (pid $pid) on $ep"
      return 0
    fi
    log "$svc: running (pid $pid) but not ready yet; waiting..."
    wait_ready "$svc"
    return
  fi
  if tcp_open "$host" "$port"; then
    log "$svc: $ep is already answering (not started by infra.sh); using it"
    return 0
  fi
  "start_$svc" || return 1
  wait_ready "$svc"
}

install_one() {
  local svc="$1"
  case "$svc" in
    kafka | postgres | documentdb | redis)
      if is_external "$svc"; then
        log "$svc: external ($(masked_env "$svc")), nothing to install"
        return 0
      fi
      ;;
  esac
  "install_$svc" || return 1
  case "$svc" in
    kafka) log "kafka: installed (Kafka $KAFKA_VERSION, classpath $(rel "$KAFKA_CP_FILE"), java $(java_major))" ;;
    postgres | documentdb) log "$svc: installed (DocumentDB $DOCUMENTDB_VERSION on PostgreSQL $PG_MAJOR; gateway $STORE_GATEWAY_BIN)" ;;
    redis) log "redis: installed ($(command -v redis-server), $(redis_version))" ;;
    chromium) log "chromium: installed ($CHROMIUM_BIN, $(chromium_version))" ;;
  esac
}

stop_one() {
  local svc="$1" pid i grace e
  pid="$(our_pid "$svc")"
  if [[ -z "$pid" ]]; then
    e="$(local_endpoint "$svc")"
    if is_external "$svc"; then
      log "$svc: external ($(masked_env "$svc")), not ours to stop"
    elif tcp_open "${e%:*}" "${e##*:}"; then
      log "$svc: $e answers but was not started by infra.sh (no pid file); leaving it alone"
    else
      log "$svc: not running"
    fi
    return 0
  fi
  local sig=TERM
  case "$svc" in kafka) grace=45 ;; postgres) grace=30 sig=INT ;; *) grace=15 ;; esac
  # PostgreSQL: SIGINT is its "fast" shutdown (SIGTERM would wait for every client to disconnect)
  log "$svc: stopping pid $pid (SIG$sig, up to ${grace} s)..."
  kill -$sig "$pid" 2>/dev/null || true
  for ((i = 0; i < grace * 4; i++)); do
    alive "$pid" || break
    sleep 0.25
  done
  if alive "$pid"; then
    warn "$svc: still running after ${grace} s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    sleep 0.5
  fi
  rm -f "$PIDS/$svc.pid"
  log "$svc: stopped"
}

status_one() { # prints one line; returns 1 when down
  local svc="$1" pid ep state="down" where="local" extra=""
  if is_external "$svc"; then
    ep="$(env_endpoint "$svc")"
    where="external"
    extra="$(masked_env "$svc")"
    if [[ "$ep" == srv ]] || tcp_open "${ep%:*}" "${ep##*:}"; then state="up"; fi
    printf '[infra] %-9s %-5s %-9s %-12s %-16s %s\n' "$svc" "$state" "$where" "-" "$ep" "$extra"
  else
    ep="$(local_endpoint "$svc")"
    pid="$(our_pid "$svc")"
    if [[ -n "$pid" ]]; then
      if svc_ready "$svc"; then state="up"; else state="starting"; fi
    elif tcp_open "${ep%:*}" "${ep##*:}"; then
      state="up"
    fi
    if [[ -z "$pid" && "$state" == up ]]; then
      where="foreign"
      extra="(answering, but not started by infra.sh)"
    else
      extra="log $(rel "$(svc_log "$svc")")"
    fi
    printf '[infra] %-9s %-5s %-9s %-12s %-16s %s\n' "$svc" "$state" "$where" "${pid:+pid $pid}" "$ep" "$extra"
  fi
  [[ "$state" == up ]]
}

# ---------------------------------------------------------------------------
# commands

normalize_svc() {
  case "$1" in
    kafka) echo kafka ;;
    documentdb | mongo | mongodb | gateway) echo documentdb ;;
    postgres | postgresql | pg) echo postgres ;;
    redis) echo redis ;;
    chromium | chrome) echo chromium ;;
    *) die "unknown service '$1' (kafka, postgres, documentdb|mongo, redis, chromium)" ;;
  esac
}

usage() {
  sed -n '2,/^set -Eeuo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'
}

setup_dirs() {
  mkdir -p "$DATA" "$TOOLS" "$LOGS" "$PIDS"
}

# First-time installs of Kafka (Maven download) and the store (DocumentDB
# build) are the slow part; when both are needed they run side by side.
# Prerequisites that may need apt run first, one at a time (dpkg lock).
INSTALL_FAILED_DIR=""
INFRA_CMD=""
parallel_installs() { # svc...
  local need=() svc pids=() p
  for svc in "$@"; do
    # `up` does not install what is already running or answering on its port
    if [[ "$INFRA_CMD" != install ]] && { [[ -n "$(our_pid "$svc")" ]] || tcp_open "$(endpoint_host "$svc")" "$(endpoint_port "$svc")"; }; then
      continue
    fi
    case "$svc" in
      kafka) is_external kafka || kafka_installed || need+=(kafka) ;;
      postgres) is_external postgres || store_installed || need+=(postgres) ;;
    esac
  done
  ((${#need[@]} >= 2)) || return 0
  log "first-time install of ${need[*]}, in parallel (~2-4 min)..."
  ensure_java && ensure_maven || return 0 # the sequential pass reports it
  INSTALL_FAILED_DIR="$(mktemp -d)"
  for svc in "${need[@]}"; do
    ("install_$svc" || touch "$INSTALL_FAILED_DIR/$svc") &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || true; done
}
install_failed_already() { [[ -n "$INSTALL_FAILED_DIR" && -e "$INSTALL_FAILED_DIR/$1" ]]; }

# One infra.sh at a time per checkout (e.g. two test runs calling `up`).
take_lock() {
  have flock || return 0
  exec 9>"$DATA/.infra.lock"
  if ! flock -n 9; then
    log "another infra.sh is running in this checkout; waiting for it..."
    flock -w 900 9 || die "timed out waiting for the other infra.sh"
  fi
}

cmd_up() { # [svc...]
  local svcs=("$@") failed=() svc want_chromium=0
  if ((${#svcs[@]} == 0)); then
    svcs=("${ALL_SERVICES[@]}")
    want_chromium=1
  fi
  parallel_installs "${svcs[@]}"
  for svc in "${svcs[@]}"; do
    if [[ "$svc" == chromium ]]; then
      want_chromium=1
      continue
    fi
    up_one "$svc" || failed+=("$svc")
  done
  if ((want_chromium)); then
    if install_chromium; then
      log "chromium: $CHROMIUM_BIN ($(chromium_version))"
    else
      failed+=(chromium)
    fi
  fi
  if ((${#failed[@]})); then
    err "failed: ${failed[*]} (logs in $(rel "$LOGS")/)"
    return 1
  fi
  log "up: ${svcs[*]}. Logs: $(rel "$LOGS")/<service>.log; stop with: bash scripts/infra.sh down"
}

cmd_down() {
  local svcs=("$@") i
  ((${#svcs[@]})) || svcs=("${ALL_SERVICES[@]}")
  # reverse order: kafka first, redis last
  for ((i = ${#svcs[@]} - 1; i >= 0; i--)); do
    [[ "${svcs[i]}" == chromium ]] && continue
    stop_one "${svcs[i]}"
  done
}

cmd_status() {
  local rc=0 svc
  printf '[infra] %-9s %-5s %-9s %-12s %-16s %s\n' SERVICE STATE WHERE PID ENDPOINT DETAILS
  for svc in "${ALL_SERVICES[@]}"; do
    status_one "$svc" || rc=3
  done
  if [[ -x "$CHROMIUM_BIN" ]]; then
    printf '[infra] %-9s %-5s %-9s %-12s %-16s %s\n' chromium ok tool - - "$CHROMIUM_BIN ($(chromium_version))"
  else
    printf '[infra] %-9s %-5s %-9s %-12s %-16s %s\n' chromium MISSING tool - - "$CHROMIUM_BIN (run: bash scripts/infra.sh install chromium)"
  fi
  return $rc
}

cmd_install() {
  local svcs=("$@") failed=() svc
  ((${#svcs[@]})) || svcs=("${ALL_SERVICES[@]}" chromium)
  parallel_installs "${svcs[@]}"
  for svc in "${svcs[@]}"; do
    install_one "$svc" || failed+=("$svc")
  done
  if ((${#failed[@]})); then
    err "install failed: ${failed[*]} (logs in $(rel "$LOGS")/install-*.log)"
    return 1
  fi
}

cmd_logs() {
  local svc="$1" n="${2:-60}" f
  f="$(svc_log "$svc")"
  [[ -f "$f" ]] || die "no log yet: $(rel "$f")"
  tail -n "$n" "$f"
}

main() {
  local cmd="${1:-}"
  shift || true
  local args=() a lines=""
  if [[ "$cmd" == logs && $# -ge 2 ]]; then
    lines="$2"
    set -- "$1"
  fi
  for a in "$@"; do args+=("$(normalize_svc "$a")"); done
  case "$cmd" in
    up | start | install | restart) ;;
    down | stop | status | logs) ;;
    -h | --help | help | "")
      usage
      [[ -n "$cmd" ]] && return 0
      return 2
      ;;
    *)
      err "unknown command '$cmd'"
      usage >&2
      return 2
      ;;
  esac
  setup_dirs
  INFRA_CMD="$cmd"
  case "$cmd" in
    up) take_lock && cmd_up "${args[@]}" ;;
    start)
      ((${#args[@]})) || die "usage: infra.sh start <kafka|postgres|documentdb|redis>..."
      take_lock && cmd_up "${args[@]}"
      ;;
    down) take_lock && cmd_down "${args[@]}" ;;
    stop)
      ((${#args[@]})) || die "usage: infra.sh stop <kafka|postgres|documentdb|redis>..."
      take_lock && cmd_down "${args[@]}"
      ;;
    restart)
      ((${#args[@]})) || args=("${ALL_SERVICES[@]}")
      take_lock && cmd_down "${args[@]}" && cmd_up "${args[@]}"
      ;;
    install) take_lock && cmd_install "${args[@]}" ;;
    status) cmd_status ;;
    logs)
      ((${#args[@]})) || die "usage: infra.sh logs <kafka|postgres|documentdb|redis> [lines]"
      cmd_logs "${args[0]}" "${lines:-60}"
      ;;
  esac
}

cleanup() { [[ -z "$INSTALL_FAILED_DIR" ]] || rm -rf "$INSTALL_FAILED_DIR"; }
trap cleanup EXIT

main "$@"
