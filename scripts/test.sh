#!/usr/bin/env bash
# npm test: the whole suite against the real services (started here when not running).
# Levels run in order: unit, integration (2 forks), serial (stop/start Kafka and Redis), browser (e2e).
#   npm test                 every level
#   npm test -- int e2e      some levels
# Ends with each level's time, the 10 slowest files and one closing line "N passed, N failed" over every level.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/infra.sh up || { echo "[test] infrastructure did not start; see the messages above"; exit 1; }
out=.data/test-results
rm -rf "$out" && mkdir -p "$out"
status=0
levels=("${@:-unit int serial e2e}")
for level in ${levels[@]}; do
  echo "[test] ===== $level ====="
  started=$(date +%s)
  extra=()
  case "$level" in serial|e2e) extra=(--no-file-parallelism) ;; esac
  TIMING_OUT="$out/$level.files" npx vitest run --project "$level" "${extra[@]}" --passWithNoTests \
    --reporter=default --reporter=json --reporter=./scripts/test-support/timing-reporter.ts --outputFile.json="$out/$level.json"
  rc=$?
  echo "$level $(( $(date +%s) - started ))" >> "$out/levels.txt"
  [ $rc -ne 0 ] && status=$rc
done
node scripts/test-support/summary.mjs "$out"
exit $status
