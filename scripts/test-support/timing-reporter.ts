import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, File } from 'vitest';

/**
 * Each test file's whole time (collect, hooks and tests: what a file costs the level), written as JSON to
 * TIMING_OUT (scripts/test.sh reads it for "the 10 slowest files"). The JSON reporter's file times leave the
 * hooks out, and a slow beforeAll or afterAll is exactly what this is for.
 */
export default class TimingReporter implements Reporter {
  onFinished(files: File[] = []) {
    const out = process.env.TIMING_OUT;
    if (!out) return;
    const root = process.cwd();
    const rows = files.map((f) => ({
      file: path.relative(root, f.filepath),
      ms: Math.round((f.collectDuration ?? 0) + (f.setupDuration ?? 0) + (f.result?.duration ?? 0)),
      tests: f.tasks.length,
    }));
    writeFileSync(out, JSON.stringify(rows));
  }
}
