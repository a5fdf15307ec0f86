import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the nearest folder above this module whose package.json declares workspaces. */
export function findRepoRoot(start: string = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if (JSON.parse(readFileSync(pkg, 'utf8')).workspaces) return dir;
      } catch {
        // not a readable package.json; keep walking up
      }
    }
    const up = path.dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
}

/** Where the reference data files live: the repo's small fixtures, and the full releases beside the repo. */
export interface ReferenceDataFiles {
  icd10: string;
  oncotree: string;
  source: 'full' | 'fixtures';
}

export function fixturesDir(root = findRepoRoot()): string {
  return path.join(root, 'services/reference/fixtures');
}

/** ../shared/data relative to the repository root (not part of the repository). */
export function sharedDataDir(root = findRepoRoot()): string {
  return path.resolve(root, '../shared/data');
}

export const FIXTURE_FILES = {
  icd10: 'icd10cm-sample.tsv',
  icd10Cms: 'icd10cm-codes-sample.txt',
  oncotree: 'oncotree-sample.json',
} as const;
export const FULL_FILES = { icd10: 'icd10cm.tsv', oncotree: 'oncotree.json' } as const;

export function fullDataFiles(dir = sharedDataDir()): ReferenceDataFiles | null {
  const icd10 = path.join(dir, FULL_FILES.icd10);
  const oncotree = path.join(dir, FULL_FILES.oncotree);
  return existsSync(icd10) && existsSync(oncotree) ? { icd10, oncotree, source: 'full' } : null;
}

export function fixtureFiles(dir = fixturesDir()): ReferenceDataFiles {
  return {
    icd10: path.join(dir, FIXTURE_FILES.icd10),
    oncotree: path.join(dir, FIXTURE_FILES.oncotree),
    source: 'fixtures',
  };
}

/** The full releases when they are present beside the repository (and wanted), otherwise the fixtures. */
export function referenceDataFiles(prefer: 'auto' | 'full' | 'fixtures' = 'auto'): ReferenceDataFiles {
  if (prefer === 'fixtures') return fixtureFiles();
  const full = fullDataFiles();
  if (full) return full;
  if (prefer === 'full') throw new Error(`The full reference data is not present in ${sharedDataDir()}`);
  return fixtureFiles();
}
