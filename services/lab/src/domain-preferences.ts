import {
  DEFAULT_SAMPLE_DOMAIN,
  DUAL_TEST_TYPE,
  NORMAL_SPECIMEN_TYPES,
  TUMOR_SPECIMEN_TYPES,
  type OrderType,
  type SpecimenKind,
} from '@onco/domain';
import type { DomainPreferenceDoc, LabModels } from './models';

/** Product data per test type (the work order prefixes and product names are the lab's). */
const TESTS = {
  NEXT_DX: { code: 'NDX', tumor: 'NeXT Dx Tumor Exome', normal: 'NeXT Dx Matched Normal', plasma: null },
  NEXT_PERSONAL_DX: {
    code: 'NPDX',
    tumor: 'NeXT Personal Dx Tumor Exome',
    normal: 'NeXT Personal Dx Matched Normal',
    plasma: 'NeXT Personal Dx Plasma cfDNA',
  },
  [DUAL_TEST_TYPE]: {
    code: 'DUAL',
    tumor: 'NeXT Dx + Personal Dx Tumor Exome',
    normal: 'NeXT Dx + Personal Dx Matched Normal',
    plasma: 'NeXT Personal Dx Plasma cfDNA',
  },
} as const;

const CONTAINERS: Record<string, string> = {
  FFPE_SLIDES: 'SLIDE_MAILER',
  FFPE_BLOCK: 'FFPE_BLOCK_CASSETTE',
  FRESH_FROZEN_TISSUE: 'CRYOVIAL_2ML',
  BLOOD: 'EDTA_TUBE_10ML',
  SALIVA: 'ORAGENE_DX_TUBE',
  BUFFY_COAT: 'CRYOVIAL_2ML',
  PLASMA: 'STRECK_CFDNA_TUBE',
};

const SEQUENCING: Record<SpecimenKind, string> = {
  TUMOR: 'NovaSeq X 25B 2x150 (exome, 500x)',
  NORMAL: 'NovaSeq X 25B 2x150 (exome, 150x)',
  PLASMA: 'NovaSeq X 25B 2x150 (cfDNA panel, 50,000x)',
};

function preferencesOf(domain: string, rankBase: number): DomainPreferenceDoc[] {
  const out: DomainPreferenceDoc[] = [];
  const orders: Array<[keyof typeof TESTS, OrderType]> = [
    ['NEXT_DX', 'INITIAL_ORDER'],
    ['NEXT_PERSONAL_DX', 'INITIAL_ORDER'],
    ['NEXT_PERSONAL_DX', 'SUBSEQUENT_ORDER'],
    [DUAL_TEST_TYPE, 'INITIAL_ORDER'],
    [DUAL_TEST_TYPE, 'SUBSEQUENT_ORDER'],
  ];
  const kinds: Array<[SpecimenKind, readonly string[]]> = [
    ['TUMOR', TUMOR_SPECIMEN_TYPES],
    ['NORMAL', NORMAL_SPECIMEN_TYPES.filter((t) => t !== 'PLASMA')],
    ['PLASMA', ['PLASMA']],
  ];
  for (const [testType, orderType] of orders) {
    const t = TESTS[testType];
    for (const [tissueType, specimenTypes] of kinds) {
      const product = tissueType === 'TUMOR' ? t.tumor : tissueType === 'NORMAL' ? t.normal : t.plasma;
      // plasma only for subsequent orders (the sample rules never offer it otherwise)
      if (!product || (tissueType === 'PLASMA' && orderType !== 'SUBSEQUENT_ORDER')) continue;
      for (const specimenType of specimenTypes) {
        const order = orderType === 'INITIAL_ORDER' ? 'I' : 'S';
        out.push({
          _id: `${domain}:${testType}:${orderType}:${tissueType}:${specimenType}`,
          domain,
          testType,
          orderType,
          tissueType,
          specimenType,
          rank: rankBase + out.length,
          workOrderNumber: `WO-${domain}-${t.code}-${order}${tissueType[0]}`,
          product,
          sequencingProduct: SEQUENCING[tissueType],
          containerTypeId: CONTAINERS[specimenType] ?? null,
          workflowAssignId: `WF-${t.code}-${tissueType}`,
        });
      }
    }
  }
  return out;
}

/**
 * A realistic set of domain preferences: the default domain PSNL for every test, order, tissue and specimen
 * type the sample rules offer, and a VA domain (accounts whose name has the word VA) with its own work orders.
 */
export const DEFAULT_DOMAIN_PREFERENCES: readonly DomainPreferenceDoc[] = [
  ...preferencesOf(DEFAULT_SAMPLE_DOMAIN, 0),
  ...preferencesOf('VA', 1000),
];

/** Load the default preferences (idempotent: existing ones, by id, are left as they are). */
export async function seedDomainPreferences(
  models: Pick<LabModels, 'DomainPreference'>,
  prefs: readonly DomainPreferenceDoc[] = DEFAULT_DOMAIN_PREFERENCES,
): Promise<number> {
  if (!prefs.length) return 0;
  const res = await models.DomainPreference.bulkWrite(
    prefs.map((p) => ({
      updateOne: { filter: { _id: p._id }, update: { $setOnInsert: p }, upsert: true },
    })),
    { ordered: false },
  );
  return res.upsertedCount;
}
