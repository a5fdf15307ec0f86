/**
 * The audit fields of a record when it is created (spec 1 section 3; the schema's side is `auditFields` in
 * records.ts): made and last changed by `by` at `now`, version 0, neither archived nor deleted.
 */
export function newRecordAudit(by: string, now: Date = new Date()) {
  return {
    createdOn: now,
    createdBy: by,
    updatedOn: now,
    updatedBy: by,
    version: 0,
    archived: false,
    deleted: false,
  };
}
