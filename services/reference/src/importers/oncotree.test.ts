import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixtureFiles } from '../paths';
import { ImportFormatError } from './common';
import { buildDiagnosisTypes, parseOncoTree, type OncoTreeNode } from './oncotree';

const nodes = parseOncoTree(readFileSync(fixtureFiles().oncotree, 'utf8'));
const rows = buildDiagnosisTypes(nodes);
const byCode = new Map(rows.map((r) => [r.code, r]));

const node = (code: string, parent: string | null, level: number): OncoTreeNode => ({
  code,
  name: code.toLowerCase(),
  mainType: null,
  tissue: null,
  parent,
  level,
});

describe('OncoTree parser', () => {
  it('given the fixture, then it has the root, the tissues and the nodes the product serves', () => {
    expect(nodes).toHaveLength(33);
    for (const c of [
      'TISSUE',
      'BREAST',
      'BRCA',
      'IDC',
      'LUNG',
      'NSCLC',
      'LUAD',
      'BOWEL',
      'COADREAD',
      'SKIN',
      'MEL',
      'PROSTATE',
      'PRAD',
    ]) {
      expect(byCode.has(c), c).toBe(true);
    }
  });

  it("computes the path from the root's children down, and the root has an empty path", () => {
    expect(byCode.get('TISSUE')?.path).toBe('');
    expect(byCode.get('BREAST')?.path).toBe('Breast (BREAST)');
    expect(byCode.get('IDC')?.path).toBe(
      'Breast (BREAST) -> Invasive Breast Carcinoma (BRCA) -> Breast Invasive Ductal Carcinoma (IDC)',
    );
    expect(byCode.get('LUAD')?.path).toBe(
      'Lung (LUNG) -> Non-Small Cell Lung Cancer (NSCLC) -> Lung Adenocarcinoma (LUAD)',
    );
    expect(byCode.get('CMML')?.path).toBe(
      'Myeloid (MYELOID) -> Myeloid Neoplasm (MNM) -> Myelodysplastic/Myeloproliferative Neoplasms (MDS/MPN) -> Chronic Myelomonocytic Leukemia (CMML)',
    );
  });

  it('marks nodes with children and keeps parentCode, level, tissue and mainType', () => {
    expect(byCode.get('TISSUE')).toMatchObject({
      childExists: true,
      parentCode: null,
      level: 0,
      tissue: null,
      mainType: null,
    });
    expect(byCode.get('BRCA')).toMatchObject({
      childExists: true,
      parentCode: 'BREAST',
      level: 2,
      tissue: 'Breast',
    });
    expect(byCode.get('IDC')).toMatchObject({
      childExists: false,
      parentCode: 'BRCA',
      level: 3,
      mainType: 'Breast Cancer',
    });
    expect(byCode.get('PRAD')?.childExists).toBe(false);
  });

  it('keeps the source order', () => {
    expect(rows.map((r) => r.code)).toEqual(nodes.map((n) => n.code));
    expect(rows[0].code).toBe('TISSUE');
  });

  it('rejects a malformed file', () => {
    expect(() => parseOncoTree('{"code": "TISSUE"}')).toThrow(/expected a JSON array/);
    expect(() => parseOncoTree('[')).toThrow(/not valid JSON/);
    expect(() =>
      parseOncoTree([{ code: 'X', name: 'x', mainType: null, tissue: null, parent: null }]),
    ).toThrow(/node 1: level/);
  });

  it('rejects a tree with a missing parent, a wrong level, a duplicate or two roots', () => {
    expect(() => buildDiagnosisTypes([node('TISSUE', null, 0), node('A', 'NOPE', 1)])).toThrow(
      /unknown parent NOPE/,
    );
    expect(() => buildDiagnosisTypes([node('TISSUE', null, 0), node('A', 'TISSUE', 2)])).toThrow(/level 2/);
    expect(() => buildDiagnosisTypes([node('TISSUE', null, 0), node('TISSUE', null, 0)])).toThrow(
      /duplicate code TISSUE/,
    );
    expect(() => buildDiagnosisTypes([node('TISSUE', null, 0), node('B', null, 0)])).toThrow(
      ImportFormatError,
    );
  });
});
