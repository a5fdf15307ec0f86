// The end of `npm test`: each level's time, the 10 slowest files, the failures again (so the tail of a long CI
// log names them) and one closing line "Tests: N passed, N failed, N skipped" over every level.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
const files = [];
for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
  const level = f.replace(/\.json$/, '');
  const r = JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + (r.numTodoTests || 0);
  // each file's whole time (collect, hooks, tests) from timing-reporter.ts; the JSON report's leaves hooks out
  const timing = path.join(dir, `${level}.files`);
  if (existsSync(timing))
    for (const t of JSON.parse(readFileSync(timing, 'utf8'))) files.push({ level, name: t.file, ms: t.ms });
  for (const file of r.testResults || []) {
    if (file.status === 'failed' && !(file.assertionResults || []).some((a) => a.status === 'failed'))
      failures.push(`${level}: ${file.name}: ${(file.message || '').split('\n').slice(0, 6).join(' | ')}`);
    for (const a of file.assertionResults || [])
      if (a.status === 'failed')
        failures.push(
          `${level}: ${file.name} > ${a.fullName}: ${(a.failureMessages || []).join(' ').split('\n').slice(0, 6).join(' | ')}`,
        );
  }
}
const levelsFile = path.join(dir, 'levels.txt');
if (existsSync(levelsFile)) {
  console.log('[test] time per level:');
  for (const line of readFileSync(levelsFile, 'utf8').trim().split('\n')) {
    const [level, s] = line.split(' ');
    const count = files.filter((f) => f.level === level).length;
    console.log(`[test]   ${level.padEnd(7)} ${String(s).padStart(5)} s  (${count} files)`);
  }
}
console.log('[test] the 10 slowest files:');
for (const f of files.sort((a, b) => b.ms - a.ms).slice(0, 10))
  console.log(`[test]   ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.level.padEnd(6)} ${f.name}`);
for (const line of failures) console.log(`[test] FAILED ${line.slice(0, 1200)}`);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
