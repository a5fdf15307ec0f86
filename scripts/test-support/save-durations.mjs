// Keeps the int level's file durations of the last `npm test` (.data/test-results/int.files, from
// timing-reporter.ts) in durations.json, which sequencer.ts reads on a machine without vitest's cache.
import { readFileSync, writeFileSync } from 'node:fs';

const rows = JSON.parse(readFileSync('.data/test-results/int.files', 'utf8'));
const out = Object.fromEntries(
  rows.sort((a, b) => b.ms - a.ms).map((r) => [`int:${r.file}`, Math.round(r.ms / 100) * 100]),
);
writeFileSync(new URL('./durations.json', import.meta.url), `${JSON.stringify(out, null, 2)}\n`);
console.log(`durations.json: ${rows.length} int files`);
