import { describe, expect, it } from 'vitest';
import { assignedPreference, sampleWorkflow, type WorkflowPreference } from './sample-workflow';

// the requisition's preferences as the lab reads them: its domain, test type and order type, every tissue type
const prefsOf = (testType: string, orderType = 'INITIAL_ORDER'): WorkflowPreference[] => [
  { tissueType: 'TUMOR', specimenType: 'FFPE_BLOCK', rank: 2, workflowAssignId: `WF-${testType}-TUMOR` },
  { tissueType: 'TUMOR', specimenType: 'FFPE_SLIDES', rank: 1, workflowAssignId: `WF-${testType}-TUMOR` },
  { tissueType: 'NORMAL', specimenType: 'BLOOD', rank: 3, workflowAssignId: `WF-${testType}-NORMAL` },
  ...(orderType === 'SUBSEQUENT_ORDER'
    ? [
        {
          tissueType: 'PLASMA' as const,
          specimenType: 'PLASMA',
          rank: 4,
          workflowAssignId: `WF-${testType}-PLASMA`,
        },
      ]
    : []),
];
const tumor = (workflowAssignId: string | null, specimenType: string | null = 'FFPE_BLOCK') => ({
  type: 'TUMOR' as const,
  specimenType,
  workflowAssignId,
});

describe('sampleWorkflow: added to the job, or ignored as incompatible with the assigned workflow', () => {
  it('given a sample added for the requisition’s own tests, it is ADDED', () => {
    expect(sampleWorkflow(tumor('WF-NDX-TUMOR'), prefsOf('NDX'))).toEqual({
      state: 'ADDED',
      reason: null,
      assigned: 'WF-NDX-TUMOR',
    });
    expect(
      sampleWorkflow(
        { type: 'NORMAL', specimenType: 'BLOOD', workflowAssignId: 'WF-NDX-NORMAL' },
        prefsOf('NDX'),
      ),
    ).toMatchObject({ state: 'ADDED' });
  });

  it('given a sample of another workflow (copied from another test type), it is IGNORED: OTHER_WORKFLOW', () => {
    expect(sampleWorkflow(tumor('WF-NPDX-TUMOR'), prefsOf('DUAL'))).toEqual({
      state: 'IGNORED',
      reason: 'OTHER_WORKFLOW',
      assigned: 'WF-DUAL-TUMOR',
    });
    // a sample that never had a workflow, where the requisition assigns one
    expect(sampleWorkflow(tumor(null), prefsOf('NDX'))).toMatchObject({
      state: 'IGNORED',
      reason: 'OTHER_WORKFLOW',
    });
  });

  it('given a kind or specimen type the requisition gives no preference for, it is IGNORED: NO_WORKFLOW', () => {
    const plasma = { type: 'PLASMA' as const, specimenType: 'PLASMA', workflowAssignId: 'WF-NPDX-PLASMA' };
    expect(sampleWorkflow(plasma, prefsOf('NPDX'))).toEqual({
      state: 'IGNORED',
      reason: 'NO_WORKFLOW',
      assigned: null,
    });
    expect(sampleWorkflow(plasma, prefsOf('NPDX', 'SUBSEQUENT_ORDER'))).toMatchObject({ state: 'ADDED' });
    expect(sampleWorkflow(tumor('WF-NDX-TUMOR', 'FRESH_FROZEN_TISSUE'), prefsOf('NDX'))).toMatchObject({
      state: 'IGNORED',
      reason: 'NO_WORKFLOW',
    });
    expect(sampleWorkflow(tumor('WF-NDX-TUMOR', null), prefsOf('NDX'))).toMatchObject({
      reason: 'NO_WORKFLOW',
    });
    expect(sampleWorkflow(tumor('WF-NDX-TUMOR'), [])).toMatchObject({
      state: 'IGNORED',
      reason: 'NO_WORKFLOW',
    });
  });

  it('the first preference by rank assigns the workflow; a preference without one assigns none', () => {
    const prefs: WorkflowPreference[] = [
      { tissueType: 'TUMOR', specimenType: 'FFPE_BLOCK', rank: 9, workflowAssignId: 'WF-LATE' },
      { tissueType: 'TUMOR', specimenType: 'FFPE_BLOCK', rank: 1, workflowAssignId: 'WF-FIRST' },
    ];
    expect(assignedPreference(prefs, 'TUMOR', 'FFPE_BLOCK')?.workflowAssignId).toBe('WF-FIRST');
    expect(sampleWorkflow(tumor('WF-LATE'), prefs)).toMatchObject({ state: 'IGNORED', assigned: 'WF-FIRST' });
    const none: WorkflowPreference[] = [
      { tissueType: 'TUMOR', specimenType: 'FFPE_BLOCK', rank: 1, workflowAssignId: null },
    ];
    expect(sampleWorkflow(tumor(null), none)).toEqual({ state: 'ADDED', reason: null, assigned: null });
    expect(sampleWorkflow(tumor('WF-X'), none)).toMatchObject({ state: 'IGNORED', reason: 'OTHER_WORKFLOW' });
  });
});
