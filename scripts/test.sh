#!/usr/bin/env bash
# npm test: the whole suite against the real services (started here when not running).
# Levels run in order: unit, integration (2 forks), serial (stop/start Kafka), browser (e2e).
# Prints one closing line "N passed, N failed" summed over every level.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/infra.sh up || { echo "[test] infrastructure did not start; see the messages above"; exit 1; }
out=.data/test-results
rm -rf "$out" && mkdir -p "$out"
status=0
levels=("${@:-unit int serial e2e}")
for level in ${levels[@]}; do
  echo "[test] ===== $level ====="
  extra=()
  case "$level" in serial|e2e) extra=(--no-file-parallelism) ;; esac
  npx vitest run --project "$level" "${extra[@]}" --passWithNoTests --reporter=default --reporter=json --outputFile="$out/$level.json"
  rc=$?
  [ $rc -ne 0 ] && status=$rc
done
node -e '
const fs = require("fs"); let passed = 0, failed = 0, skipped = 0; const failures = [];
for (const f of fs.readdirSync(process.argv[1])) {
  const r = JSON.parse(fs.readFileSync(process.argv[1] + "/" + f, "utf8"));
  passed += r.numPassedTests; failed += r.numFailedTests; skipped += r.numPendingTests + (r.numTodoTests || 0);
  for (const file of r.testResults || []) {
    if (file.status === "failed" && !(file.assertionResults || []).some((a) => a.status === "failed"))
      failures.push(`${f}: ${file.name}: ${(file.message || "").split("\n").slice(0, 6).join(" | ")}`);
    for (const a of file.assertionResults || [])
      if (a.status === "failed")
        failures.push(`${f}: ${file.name} > ${a.fullName}: ${(a.failureMessages || []).join(" ").split("\n").slice(0, 6).join(" | ")}`);
  }
}
// the failures again at the end, so the tail of a long CI log names them
for (const line of failures) console.log(`[test] FAILED ${line.slice(0, 1200)}`);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
' "$out"
exit $status
