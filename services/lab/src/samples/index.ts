/**
 * The lab's samples (spec 2 sections 2.8, 3, 4, 5 and 7 "Samples"). The rules are the domain's
 * (`@onco/domain` lab/samples.ts); this module reads the state they need, refuses what they refuse (400 for a
 * form problem, 409 for a state that forbids the change; nothing is written then), and writes each sample with
 * its `sample` event in ONE document write (the outbox): an insert carries it in `outbox`, an update pushes it
 * in the same conditional update (on `version`, so two edits of one sample never lose a write); each write commits
 * in one transaction with its audit entry (use-cases/audit.ts, docs/audit.md "Changes").
 *
 * The lab knows a requisition only through its test orders (their `testOrderForm` snapshot): a requisition
 * without test orders in the user's scope is unknown here (404), and the data scope of a sample is the scope
 * of its requisition's test orders (so a change of the requisition's account, applied to the test orders by
 * the requisition-changed consumer, moves its samples with it).
 */
export * from './requisition';
export * from './preferences';
export * from './rules';
export * from './create';
export * from './update';
export * from './copy';
export * from './lims';
