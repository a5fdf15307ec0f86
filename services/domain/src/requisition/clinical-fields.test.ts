import { describe, expect, it } from 'vitest';
import { permissionsOf } from '../permissions';
import {
  clinicalFieldLocked,
  isTreeDiagnosis,
  msgClinicalFieldPermission,
  refusedClinicalFields,
} from './clinical-fields';

const paths = (fs: { path: string }[]) => fs.map((f) => f.path);
const treeDx = JSON.stringify({ code: 'IDC', octDxBreadCrumb: 'Breast (BREAST) -> IDC', parentCode: 'BRCA' });

describe('refusedClinicalFields: who may set the clinical fields', () => {
  const observer: string[] = []; // none of the permissions
  it('refuses each gated field a user without its permission sets on a new requisition', () => {
    const next = {
      tumorSpecimen: {
        priorTherapies: ['Tamoxifen'],
        currentTherapies: ['Letrozole'],
        specimenType: 'FFPE_BLOCK',
        content: 30,
        dateOfDiagnosis: '2026-01-02',
        reviewDiagnosis: true,
        octDxBreadCrumb: 'free text, not a node',
      },
    };
    expect(paths(refusedClinicalFields(next, null, observer))).toEqual([
      'tumorSpecimen.priorTherapies',
      'tumorSpecimen.currentTherapies',
      'tumorSpecimen.specimenType',
      'tumorSpecimen.content',
      'tumorSpecimen.dateOfDiagnosis',
      'tumorSpecimen.octDxBreadCrumb',
      'tumorSpecimen.reviewDiagnosis',
    ]);
    expect(refusedClinicalFields(next, null, permissionsOf('ROLE_PORTAL_ADMIN'))).toEqual([]);
  });

  it('a value repeated as stored is not a change: empty values, numbers as text and lists alike', () => {
    const stored = { tumorSpecimen: { content: 30, priorTherapies: ['A'], reviewDiagnosis: null } };
    const next = { tumorSpecimen: { content: '30', priorTherapies: [' A'], reviewDiagnosis: false } };
    expect(refusedClinicalFields(next, stored, observer)).toEqual([]);
    // a block the save does not carry changes nothing
    expect(refusedClinicalFields({ patient: { mrn: 'x' } }, stored, observer)).toEqual([]);
  });

  it('changing or clearing a stored value is refused too', () => {
    const stored = { tumorSpecimen: { content: 30, dateOfDiagnosis: '2026-01-02' } };
    expect(paths(refusedClinicalFields({ tumorSpecimen: { content: 40 } }, stored, observer))).toEqual([
      'tumorSpecimen.content',
      'tumorSpecimen.dateOfDiagnosis',
    ]);
  });

  it('a diagnosis chosen from the tree needs no CAN_ADD_DIAGNOSIS; free text does', () => {
    const npi = permissionsOf('ROLE_NPI');
    expect(npi).not.toContain('CAN_ADD_DIAGNOSIS');
    expect(isTreeDiagnosis(treeDx)).toBe(true);
    expect(isTreeDiagnosis('{"octDxBreadCrumb":"x"}')).toBe(false);
    expect(isTreeDiagnosis('not json')).toBe(false);
    expect(refusedClinicalFields({ tumorSpecimen: { octDxBreadCrumb: treeDx } }, null, npi)).toEqual([]);
    const refused = refusedClinicalFields({ tumorSpecimen: { octDxBreadCrumb: 'Rare sarcoma' } }, null, npi);
    expect(msgClinicalFieldPermission(refused[0])).toBe(
      'Only users with CAN_ADD_DIAGNOSIS may set a diagnosis that is not in the diagnosis tree.',
    );
    // clearing a free-text path needs it as well; clearing a tree node does not
    const stored = { tumorSpecimen: { octDxBreadCrumb: 'Rare sarcoma' } };
    expect(refusedClinicalFields({ tumorSpecimen: {} }, stored, npi)).toHaveLength(1);
    expect(
      refusedClinicalFields({ tumorSpecimen: {} }, { tumorSpecimen: { octDxBreadCrumb: treeDx } }, npi),
    ).toEqual([]);
  });

  it('the roles that order hold the clinical fields; a project manager (Edit, no CAN_ADD_*) does not', () => {
    const next = { tumorSpecimen: { specimenType: 'FFPE_BLOCK', content: 25, priorTherapies: ['A'] } };
    for (const role of ['ROLE_NPI', 'ROLE_ACCESSIONER', 'ROLE_ADMINISTRATOR'] as const)
      expect(refusedClinicalFields(next, null, permissionsOf(role))).toEqual([]);
    expect(paths(refusedClinicalFields(next, null, permissionsOf('ROLE_PROJECT_MANAGER')))).toEqual([
      'tumorSpecimen.priorTherapies',
      'tumorSpecimen.specimenType',
      'tumorSpecimen.content',
    ]);
  });
});

describe('clinicalFieldLocked: the inputs the wizard and the Edit panel disable', () => {
  it('locks a gated field without its permission, never an ungated one nor the diagnosis path', () => {
    const pm = permissionsOf('ROLE_PROJECT_MANAGER');
    expect(clinicalFieldLocked('tumorSpecimen.content', pm)).toBe(true);
    expect(clinicalFieldLocked('tumorSpecimen.content', permissionsOf('ROLE_PATHOLOGIST'))).toBe(false);
    expect(clinicalFieldLocked('tumorSpecimen.specimenId', pm)).toBe(false);
    expect(clinicalFieldLocked('tumorSpecimen.octDxBreadCrumb', [])).toBe(false);
  });
});
