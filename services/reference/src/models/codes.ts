import { auditedSchema } from '@onco/platform';
import type { Audited } from './common';

/** One ICD-10-CM code (spec 1 section 3). */
export interface Icd10CodeDoc extends Audited {
  /** without the dot, e.g. C50911 */
  code: string;
  /** with the dot after the 3rd character, e.g. C50.911 */
  formattedCode: string;
  description: string;
}

export const icd10CodeSchema = auditedSchema(
  {
    code: { type: String, required: true },
    formattedCode: { type: String, required: true },
    description: { type: String, required: true },
  },
  { collection: 'icd10_codes' },
);
// the importer's upsert by code; GET /icddx default sort code asc
icd10CodeSchema.index({ code: 1 }, { unique: true });
// GET /icddx?filter={"formattedCode":"in(C50.911,C61)"}: the codes stored on a requisition
icd10CodeSchema.index({ formattedCode: 1 });

/** One OncoTree node (spec 1 section 3, "Diagnosis node"). */
export interface DiagnosisTypeDoc extends Audited {
  code: string;
  name: string;
  mainType: string | null;
  tissue: string | null;
  parentCode: string | null;
  level: number;
  /** 'Name (CODE) -> ...' from the root's children down to this node ('' for the root) */
  path: string;
  childExists: boolean;
}

export const diagnosisTypeSchema = auditedSchema(
  {
    code: { type: String, required: true },
    name: { type: String, required: true },
    mainType: { type: String, default: null },
    tissue: { type: String, default: null },
    parentCode: { type: String, default: null },
    level: { type: Number, required: true },
    path: { type: String, default: '' },
    childExists: { type: Boolean, default: false },
  },
  { collection: 'diagnosis_types' },
);
// the importer's upsert by code; GET /diagnosisTypes/code/:code
diagnosisTypeSchema.index({ code: 1 }, { unique: true });
// GET /diagnosisTypes/code/:code: the node's children, by name
diagnosisTypeSchema.index({ parentCode: 1, name: 1 });
// GET /diagnosisTypes (search): level >= 2 (tissues dropped), default sort name asc
diagnosisTypeSchema.index({ level: 1, name: 1 });
