#!/usr/bin/env bash
# npm test: the whole suite against the real services (started here when not running).
# Levels: unit, integration (4 forks), serial (stop and start Kafka and Redis), browser (e2e).
#   npm test                 every level
#   npm test -- int e2e      some levels
# The serial level runs on a Kafka and a Redis of its own (ports 9192/9193 and 6380, data in .data/serial-infra),
# so stopping and starting them disturbs nothing else (a running `npm start`, another level). Run beside the
# browser level it saved only ~25 s of ~475 (both slowed down on 2 cores), so it runs in its turn.
# Ends with each level's time, the 10 slowest files and one closing line "N passed, N failed" over every level.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/infra.sh up || { echo "[test] infrastructure did not start; see the messages above"; exit 1; }
out=.data/test-results
rm -rf "$out" && mkdir -p "$out"
status=0
read -r -a levels <<<"${*:-unit int serial e2e}"

# run_level LEVEL: one vitest project, its time appended to levels.txt; returns vitest's exit code
run_level() {
  local level="$1" started rc extra=()
  started=$(date +%s)
  case "$level" in
    # the int files mostly wait (on Kafka, BullMQ, the store): 4 forks on 2 cores finish in ~3/4 of the time of 2
    # (docs/testing.md "Figures"); 6 were slower again. Files share the 4 forks (modules loaded once, one shared
    # system a fork: vitest 3.2 takes isolation from the root's poolOptions, not the project's); the pool keeps all
    # 4, because shrinking it ended a file still running (docs/testing.md "Files sharing a fork")
    int) extra=(--maxWorkers=4 --minWorkers=4 --poolOptions.forks.isolate=false) ;;
    serial | e2e) extra=(--no-file-parallelism) ;;
  esac
  TIMING_OUT="$out/$level.files" npx vitest run --project "$level" "${extra[@]}" --passWithNoTests \
    --reporter=default --reporter=json --reporter=./scripts/test-support/timing-reporter.ts --outputFile.json="$out/$level.json"
  rc=$?
  echo "$level $(($(date +%s) - started))" >>"$out/levels.txt"
  return $rc
}

# the serial level's own Kafka and Redis (scripts/infra.sh, second set); its tests' systems connect to them
serial_env=(INFRA_DATA_DIR="$PWD/.data/serial-infra" INFRA_TOOLS_DIR="$PWD/.data/tools" INFRA_KAFKA_PORT=9192
  INFRA_KAFKA_CONTROLLER_PORT=9193 INFRA_REDIS_PORT=6380 KAFKA_BROKERS=127.0.0.1:9192 REDIS_URL=redis://127.0.0.1:6380)
run_serial() {
  env "${serial_env[@]}" bash scripts/infra.sh up kafka redis || {
    echo "[test] the serial level's Kafka and Redis did not start; see the messages above"
    return 1
  }
  local rc
  (export "${serial_env[@]}" && run_level serial)
  rc=$?
  env "${serial_env[@]}" bash scripts/infra.sh down kafka redis
  return $rc
}

for level in "${levels[@]}"; do
  echo "[test] ===== $level ====="
  if [[ $level == serial ]]; then
    run_serial || status=1
  else
    run_level "$level" || status=1
  fi
done
node scripts/test-support/summary.mjs "$out"
exit $status
