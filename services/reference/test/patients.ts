/** Reference-service fixtures for its int tests (imported by path). */
import type { ReferenceModels } from '../src/models';

/** Patients named Ada Lovelace of one account, written straight to the store: `[id, userId]` each. */
export async function adaLovelaces(
  ref: ReferenceModels,
  accountId: string,
  patients: ReadonlyArray<readonly [string, string]>,
): Promise<void> {
  for (const [id, userId] of patients)
    await ref.Patient.create({
      _id: id,
      userId,
      firstName: 'Ada',
      lastName: 'Lovelace',
      name: 'Ada Lovelace',
      accountIds: [accountId],
    });
}
