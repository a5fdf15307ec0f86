/**
 * Versioned zod schemas of the `data` part of each event family.
 *
 * Rules (see docs/events.md, "Versioning"):
 * - Within a topic (`*.v1`), a new schemaVersion may only ADD optional/nullable fields or
 *   (consumers first) new enum values. Unknown fields are stripped by consumers, never rejected.
 * - A breaking change (removing/renaming/retyping a field) gets a new topic `*.v2`.
 *
 * The enumerations come from `@onco/domain`, the product's pure vocabulary package (no I/O), so an
 * event and the service that emits it can never disagree on a value.
 *
 * One file a family in schemas/ (shared enumerations and building blocks in schemas/common.ts, the registry of
 * families in schemas/registry.ts); this file re-exports them all.
 */

export * from './schemas/common';
export * from './schemas/requisition-submitted';
export * from './schemas/requisition-changed';
export * from './schemas/test-status';
export * from './schemas/sample';
export * from './schemas/billing-case';
export * from './schemas/attachment';
export * from './schemas/sample-manifest';
export * from './schemas/patient';
export * from './schemas/patient-requisitions';
export * from './schemas/audit';
export * from './schemas/registry';
