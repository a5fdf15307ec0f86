/**
 * The wire contract's building blocks: each row the console reads is declared once here (and beside it in
 * ./billing.ts, ./lab.ts) with its dates as a parameter `D`: `Date` in the server's stored documents, ISO text
 * (`WireDate`) in the JSON the console receives. The server's model types extend the `...Fields<Date>` shapes
 * with their internal fields (`_id`, `outbox`); the console's api.ts types are the `...Row` aliases.
 */

/** A date as JSON carries it: ISO text (a calendar day 'YYYY-MM-DD' where the field says so). */
export type WireDate = string;

/**
 * The audit fields every stored record carries (spec 1 section 3; the mongoose side is @onco/platform's
 * auditFields). `version` is the optimistic-concurrency counter.
 */
export interface RecordFields<D> {
  createdOn: D;
  createdBy: string | null;
  updatedOn: D;
  updatedBy: string | null;
  version: number;
  archived: boolean;
  deleted: boolean;
}

/** A reference to another record: its id and display name, either unknown (null). */
export interface IdNameRef {
  id: string | null;
  name: string | null;
}

/** A postal address as records store and send it (accounts, locations, patients, a requisition's snapshots). */
export interface PostalAddress {
  street?: string | null;
  city?: string | null;
  state?: string | null;
  postalCode?: string | null;
  country?: string | null;
}

/** A location's address: the postal address with the location's telephone and fax. */
export interface LocationAddress extends PostalAddress {
  telephone?: string | null;
  fax?: string | null;
}
