#!/usr/bin/env bash
# npm start: install what is missing, start Kafka, the store (DocumentDB on PostgreSQL) and Redis, build the console when needed,
# then run every API area, the workers and the console in one process on :8080 with demo data.
# When the server exits, or on Ctrl-C / SIGTERM, everything this script started is stopped again: the server, the
# billing gateway stand-in and the local services that were not already running (ONCO_KEEP_INFRA=1 keeps them).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ]; then
  echo "[start] installing npm packages (first time)..."
  npm install --no-audit --no-fund
fi
TSX=node_modules/.bin/tsx

# the local services running before this script, so only the others are stopped at the end
SERVICES=(redis postgres documentdb kafka)
# (infra.sh status exits non-zero while a service is down)
already_up=" $({ bash scripts/infra.sh status 2>/dev/null || true; } | awk '$1 == "[infra]" && $3 == "up" {print $2}' | tr '\n' ' ') "
bash scripts/infra.sh up
started=()
if [ -z "${ONCO_KEEP_INFRA:-}" ]; then
  local_up=" $({ bash scripts/infra.sh status 2>/dev/null || true; } | awk '$1 == "[infra]" && $3 == "up" && $4 == "local" {print $2}' | tr '\n' ' ') "
  for s in "${SERVICES[@]}"; do
    if [[ "$local_up" == *" $s "* && "$already_up" != *" $s "* ]]; then started+=("$s"); fi
  done
fi

if [ ! -f console/dist/index.html ] || [ -n "$(find console/src console/index.html -newer console/dist/index.html -print -quit 2>/dev/null)" ]; then
  echo "[start] building the console..."
  npm run build -w console --silent
fi

gateway_pid=""
server_pid=""
cleanup() {
  local code=$?
  trap - EXIT INT TERM
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if [ -n "$gateway_pid" ]; then
    kill -TERM "$gateway_pid" 2>/dev/null || true
    wait "$gateway_pid" 2>/dev/null || true
    rm -f .data/billing-gateway.pid
    echo "[start] billing gateway stand-in stopped"
  fi
  if ((${#started[@]})); then
    # the reverse of the start order
    local reversed=()
    for ((i = ${#started[@]} - 1; i >= 0; i--)); do reversed+=("${started[i]}"); done
    echo "[start] stopping the local services npm start started: ${reversed[*]}"
    bash scripts/infra.sh stop "${reversed[@]}" || true
  fi
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# the billing gateway stand-in (docs/billing-gateway.md) on :8090, unless BILLING_GATEWAY_URL points elsewhere
if [ -z "${BILLING_GATEWAY_URL:-}" ]; then
  mkdir -p .data/logs
  if [ -f .data/billing-gateway.pid ] && kill -0 "$(cat .data/billing-gateway.pid)" 2>/dev/null; then
    echo "[start] billing gateway stand-in already running (pid $(cat .data/billing-gateway.pid)), left as it is"
  else
    "$TSX" services/billing/src/submission/gateway-main.ts --port "${BILLING_GATEWAY_PORT:-8090}" >.data/logs/billing-gateway.log 2>&1 &
    gateway_pid=$!
    echo "$gateway_pid" >.data/billing-gateway.pid
    export BILLING_GATEWAY_URL="http://127.0.0.1:${BILLING_GATEWAY_PORT:-8090}"
    echo "[start] billing gateway stand-in on http://127.0.0.1:${BILLING_GATEWAY_PORT:-8090} (log .data/logs/billing-gateway.log)"
  fi
fi
echo "[start] starting the platform on http://127.0.0.1:${PORT:-8080}/ (Ctrl-C to stop)"
"$TSX" services/server/src/main.ts &
server_pid=$!
# `wait` returns early on a trapped signal (then the trap exits and cleanup stops the server)
set +e
wait "$server_pid"
status=$?
server_pid=""
exit "$status"
