import { Schema, type Connection, type Model } from 'mongoose';

/**
 * A billing specialist (spec 3 section 3: id, name, email), whom a billing case can be assigned to. The billing
 * service keeps its own list (services never read each other's collections): the demo billing users are seeded
 * by services/server/src/seed.ts. Collection `billing_specialists`.
 */
export interface BillingSpecialistDoc {
  _id: string;
  name: string;
  email: string | null;
  /** lower-cased name and email, what the 2+ character search matches */
  searchText: string;
  active: boolean;
}

export const billingSpecialistSchema = new Schema(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    email: { type: String, default: null },
    searchText: { type: String, required: true },
    active: { type: Boolean, default: true },
  },
  { collection: 'billing_specialists', versionKey: false, minimize: false },
);
// GET /billingSpecialists?q=: active specialists by name (the search itself is a substring match on searchText)
billingSpecialistSchema.index({ active: 1, name: 1 });

export function billingSpecialistModel(conn: Connection): Model<BillingSpecialistDoc> {
  return (
    (conn.models.BillingSpecialist as Model<BillingSpecialistDoc>) ??
    conn.model<BillingSpecialistDoc>('BillingSpecialist', billingSpecialistSchema as never)
  );
}

/** The stored form of a specialist (its search text derived). */
export function billingSpecialistDoc(s: {
  id: string;
  name: string;
  email?: string | null;
}): BillingSpecialistDoc {
  return {
    _id: s.id,
    name: s.name,
    email: s.email ?? null,
    searchText: `${s.name} ${s.email ?? ''}`.toLowerCase(),
    active: true,
  };
}

/** Upsert specialists by id (idempotent: the seed and tests call it again freely). */
export async function upsertBillingSpecialists(
  model: Model<BillingSpecialistDoc>,
  specialists: { id: string; name: string; email?: string | null }[],
): Promise<void> {
  for (const s of specialists) {
    const { _id, ...rest } = billingSpecialistDoc(s);
    await model.updateOne({ _id }, { $set: rest }, { upsert: true }).exec();
  }
}
