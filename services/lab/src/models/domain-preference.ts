import { Schema, type Connection, type Model } from 'mongoose';
import { ORDER_TYPES, SPECIMEN_TYPES, type OrderType, type SpecimenKind } from '@onco/domain';
import { str } from './common';

/**
 * A domain preference (spec 2 section 7 "Samples"): which work order and products a sample gets, by domain
 * (from the account name, default PSNL), test type (the one ordered, or DUAL), order type, tissue type (the
 * sample kind) and specimen type. The first match (lowest `rank`) wins. Reference data of the lab: loaded by
 * an operator (the demo seeds a realistic set, see DEFAULT_DOMAIN_PREFERENCES). Collection `domain_preferences`.
 */
export interface DomainPreferenceDoc {
  _id: string;
  domain: string;
  testType: string;
  orderType: OrderType;
  tissueType: SpecimenKind;
  specimenType: string;
  /** lower first */
  rank: number;
  workOrderNumber: string;
  product: string | null;
  sequencingProduct: string | null;
  containerTypeId: string | null;
  workflowAssignId: string | null;
}

export const domainPreferenceSchema = new Schema(
  {
    _id: { type: String, required: true },
    domain: { type: String, required: true },
    testType: { type: String, required: true },
    orderType: { type: String, enum: ORDER_TYPES, required: true },
    tissueType: { type: String, enum: SPECIMEN_TYPES, required: true },
    specimenType: { type: String, required: true },
    rank: { type: Number, default: 0 },
    workOrderNumber: { type: String, required: true },
    product: str,
    sequencingProduct: str,
    containerTypeId: str,
    workflowAssignId: str,
  },
  { collection: 'domain_preferences', versionKey: false, minimize: false },
);

// the sample dialog's and the sample service's lookup: the full key, first by rank
domainPreferenceSchema.index({
  domain: 1,
  testType: 1,
  orderType: 1,
  tissueType: 1,
  specimenType: 1,
  rank: 1,
});

export function domainPreferenceModel(conn: Connection): Model<DomainPreferenceDoc> {
  return (
    (conn.models.DomainPreference as Model<DomainPreferenceDoc>) ??
    conn.model<DomainPreferenceDoc>('DomainPreference', domainPreferenceSchema as never)
  );
}
