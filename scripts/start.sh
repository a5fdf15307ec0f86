#!/usr/bin/env bash
# npm start: install what is missing, start Kafka, the store (DocumentDB on PostgreSQL) and Redis, build the console when needed,
# then run every API area, the workers and the console in one process on :8080 with demo data.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ]; then
  echo "[start] installing npm packages (first time)..."
  npm install --no-audit --no-fund
fi
bash scripts/infra.sh up
if [ ! -f console/dist/index.html ] || [ -n "$(find console/src console/index.html -newer console/dist/index.html -print -quit 2>/dev/null)" ]; then
  echo "[start] building the console..."
  npm run build -w console --silent
fi
# the billing gateway stand-in (docs/billing-gateway.md) on :8090, unless BILLING_GATEWAY_URL points elsewhere
if [ -z "${BILLING_GATEWAY_URL:-}" ]; then
  mkdir -p .data/logs
  if [ -f .data/billing-gateway.pid ] && kill -0 "$(cat .data/billing-gateway.pid)" 2>/dev/null; then
    echo "[start] billing gateway stand-in already running (pid $(cat .data/billing-gateway.pid))"
  else
    nohup npx tsx services/billing/src/submission/gateway-main.ts --port 8090 >.data/logs/billing-gateway.log 2>&1 &
    echo $! >.data/billing-gateway.pid
    echo "[start] billing gateway stand-in on http://127.0.0.1:8090 (log .data/logs/billing-gateway.log)"
  fi
fi
echo "[start] starting the platform on http://127.0.0.1:${PORT:-8080}/ (Ctrl-C to stop)"
exec npx tsx services/server/src/main.ts
