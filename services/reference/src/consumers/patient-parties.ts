import { isEventOf, runConsumer, withPrefix, type AnyEvent } from '@onco/events';
import type { PlatformContext } from '@onco/platform';
import type { ReferenceModels } from '../models';

/** The reference service's consumer group for the requisition events (prefixed like the topics). */
export const REFERENCE_PATIENT_GROUP = 'reference.patient-parties';

/** What a submitted (or re-assigned) requisition tells the patient directory. */
export interface PatientParties {
  patientId: string;
  accountId?: string | null;
  physicianId?: string | null;
  hospitalLocationId?: string | null;
}

/**
 * A requisition submitted for a patient, or edited to name another account, physician or location
 * (`parties-changed`), adds them to the patient's accountIds, physicianIds and hospitalLocationIds: the patients
 * list's data scope and its Account, Provider and Hospital filters. `$addToSet` only: a redelivery or an older
 * event changes nothing, and nothing is ever removed (a patient stays visible to an account that ordered for them;
 * decision, docs/decisions.md "Patients"). The patient's updatedOn and version are not touched: no user edited it.
 */
export async function applyPatientParties(models: ReferenceModels, p: PatientParties): Promise<boolean> {
  const add: Record<string, string> = {};
  if (p.accountId) add.accountIds = p.accountId;
  if (p.physicianId) add.physicianIds = p.physicianId;
  if (p.hospitalLocationId) add.hospitalLocationIds = p.hospitalLocationId;
  if (!p.patientId || Object.keys(add).length === 0) return false;
  const res = await models.Patient.updateOne({ _id: p.patientId }, { $addToSet: add }).exec();
  return res.modifiedCount > 0;
}

export async function startPatientPartiesConsumer(ctx: PlatformContext, models: ReferenceModels) {
  const consumer = await runConsumer({
    kafka: ctx.kafka,
    db: ctx.mongo,
    groupId: withPrefix(REFERENCE_PATIENT_GROUP, ctx.config.TOPIC_PREFIX),
    topics: ['requisition-submitted', 'requisition-changed'],
    topicPrefix: ctx.config.TOPIC_PREFIX,
    logger: ctx.logger,
    handler: async (event: AnyEvent) => {
      if (isEventOf(event, 'requisition-submitted')) await applyPatientParties(models, event.data);
      else if (isEventOf(event, 'requisition-changed') && event.data.changes.includes('parties-changed'))
        await applyPatientParties(models, event.data);
    },
  });
  return { stop: () => consumer.stop() };
}
