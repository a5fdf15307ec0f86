import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderPermissionsDoc } from './permissions-doc';

describe('docs/permissions.md', () => {
  it('matches the matrix (run npm run docs:permissions after changing it)', () => {
    expect(readFileSync('docs/permissions.md', 'utf8')).toBe(renderPermissionsDoc());
  });
});
