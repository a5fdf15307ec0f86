import {
  domainPreferenceKey,
  type DomainPreferenceKey,
  type SampleRequisition,
  type SpecimenKind,
} from '@onco/domain';
import type { DomainPreferenceDoc, LabModels } from '../models';

/** The distinct domains of the preferences (to recognise an account's domain by name). */
export async function knownDomains(models: LabModels): Promise<string[]> {
  return (await models.DomainPreference.distinct('domain').exec()) as string[];
}

/**
 * The domain preferences a manifest's rows ask for, remembered per key (many rows share a few keys): the
 * answer once the store gave it (so a row's check needs no await), the store's promise until then.
 */
export class DomainPreferenceCache {
  private readonly answers = new Map<string, DomainPreferenceDoc | null>();
  private readonly pending = new Map<string, Promise<DomainPreferenceDoc | null>>();
  /** the requisition part of a key (domain, test and order type), per requisition object (a view is not changed) */
  private readonly bases = new WeakMap<SampleRequisition, string>();
  constructor(
    private readonly models: LabModels,
    private readonly domains: string[],
  ) {}

  get(
    req: SampleRequisition,
    type: SpecimenKind,
    specimenType: string,
  ): DomainPreferenceDoc | null | Promise<DomainPreferenceDoc | null> {
    let base = this.bases.get(req);
    if (base === undefined) {
      const key = domainPreferenceKey(req, type, specimenType, this.domains);
      this.bases.set(req, (base = `${key.domain}|${key.testType}|${key.orderType}`));
    }
    const k = `${base}|${type}|${specimenType}`;
    const answer = this.answers.get(k);
    if (answer !== undefined) return answer;
    let p = this.pending.get(k);
    if (!p) {
      p = findPreference(this.models, domainPreferenceKey(req, type, specimenType, this.domains));
      this.pending.set(k, p);
      void p.then(
        (doc) => this.answers.set(k, doc),
        () => this.pending.delete(k), // a failed read is asked again
      );
    }
    return p;
  }
}

/** The first domain preference for a sample of `type`/`specimenType` on the requisition, or null. */
export async function findDomainPreference(
  models: LabModels,
  req: SampleRequisition,
  type: SpecimenKind,
  specimenType: string,
  domains?: string[],
): Promise<DomainPreferenceDoc | null> {
  const key = domainPreferenceKey(req, type, specimenType, domains ?? (await knownDomains(models)));
  return findPreference(models, key);
}

const findPreference = (models: LabModels, key: DomainPreferenceKey) =>
  models.DomainPreference.findOne(key).sort({ rank: 1, _id: 1 }).lean<DomainPreferenceDoc>().exec();
