import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Longest files first, so the int level's 4 forks end together instead of one fork finishing a 50-second file
 * alone. vitest does this by itself from its cache of the last run's durations; a fresh clone (CI) has no cache and
 * would start the largest files first, which is not the same. There, the durations of a fresh-clone run kept in
 * durations.json order the files; a file not in it (a new one) comes first, as vitest runs unknown files first.
 * Refresh after `npm test`: `node scripts/test-support/save-durations.mjs`.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const key = (f: TestSpecification) => `${f.project.name}:${path.relative(root, f.moduleId)}`;
    if (files.every((f) => this.ctx.cache.getFileTestResults(key(f)))) return super.sort(files);
    const known = durations();
    const ms = (f: TestSpecification) => known[key(f)] ?? Number.POSITIVE_INFINITY;
    return [...files].sort((a, b) => ms(b) - ms(a));
  }
}

function durations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8'));
  } catch {
    return {};
  }
}
