import { Schema, type Connection, type Model } from 'mongoose';
import { auditedSchema } from '@onco/platform';
import {
  KIT_TYPES,
  MESSAGE_TYPES,
  SHIPPING_REQUESTS,
  type MessageType,
  type RecordFields,
} from '@onco/domain';

const sub = (def: Record<string, unknown>) => new Schema(def, { _id: false, minimize: false });
const str = { type: String, default: null } as const;

/**
 * Messages and comments (spec 2 section 3 "Message/comment"). A thread starts with a parent (isParent true,
 * type CASE or FEED_COMMENT); each reply is its own document (isParent false, type CASE_COMMENT) pointing at
 * it through `parent` {id, sfdcId}; `messageThreads` in replies to clients is assembled from those documents.
 * `lastMessageCreatedOn` on the parent is bumped by each reply so the list sorts threads by latest activity.
 * `read` is the thread's read flag (PATCH marks it); `readers` holds the users who opened it (addReader).
 * Collection `messages`.
 */
export interface MessageDoc extends RecordFields<Date> {
  _id: string;
  subject: string | null;
  messageBody: string | null;
  isParent: boolean;
  type: MessageType;
  read: boolean;
  new: boolean;
  readers: string[];
  owner: { id: string | null; firstName: string | null; lastName: string | null } | null;
  lastMessageCreatedOn: Date | null;
  sfdcId: string | null;
  parent: { id: string | null; sfdcId: string | null } | null;
  testOrderForm: { id: string | null; testRequisitionId: string | null } | null;
  patient: { id: string | null; name: string | null } | null;
  hospitalLocation: { id: string | null; name: string | null } | null;
  account: { id: string | null; name: string | null } | null;
  actionType: string | null;
  activityType: string | null;
  commentAction: string | null;
  /** a comment on a requisition (or a reply to one), not a message: kept out of the messages list and counts */
  comment: boolean;
}

export const messageSchema = auditedSchema(
  {
    subject: str,
    messageBody: str,
    isParent: { type: Boolean, default: true },
    type: { type: String, enum: MESSAGE_TYPES, default: 'CASE' },
    read: { type: Boolean, default: false },
    new: { type: Boolean, default: true },
    readers: { type: [String], default: [] },
    owner: { type: sub({ id: str, firstName: str, lastName: str }), default: null },
    lastMessageCreatedOn: { type: Date, default: () => new Date() },
    sfdcId: str,
    parent: { type: sub({ id: str, sfdcId: str }), default: null },
    testOrderForm: { type: sub({ id: str, testRequisitionId: str }), default: null },
    patient: { type: sub({ id: str, name: str }), default: null },
    hospitalLocation: { type: sub({ id: str, name: str }), default: null },
    account: { type: sub({ id: str, name: str }), default: null },
    actionType: str,
    activityType: str,
    commentAction: str,
    comment: { type: Boolean, default: false },
  },
  { collection: 'messages' },
);

// messages list: isParent filter (threads only) with the default sort lastMessageCreatedOn DESC; communicationCount
messageSchema.index({ isParent: 1, lastMessageCreatedOn: -1 });
// messages list: sort by createdOn
messageSchema.index({ createdOn: -1 });
// messages list: data scope by account
messageSchema.index({ 'account.id': 1 });
// messages list: data scope by owner
messageSchema.index({ 'owner.id': 1 });
// messages list: createdBy filter (My messages / my comments)
messageSchema.index({ createdBy: 1 });
// thread panel: the replies of a parent
messageSchema.index({ 'parent.id': 1 });
// comment panel: comments filtered by testOrderFormId
messageSchema.index({ 'testOrderForm.id': 1 });

export function messageModel(conn: Connection): Model<MessageDoc> {
  return (conn.models.Message as Model<MessageDoc>) ?? conn.model<MessageDoc>('Message', messageSchema);
}

/** A test kit request (spec 2 sections 2.10 and 3 "Kit request"). Collection `kit_requests`. */
export interface KitRequestDoc extends RecordFields<Date> {
  _id: string;
  testKitType: (typeof KIT_TYPES)[number];
  numberOfKits: number;
  recipient: string | null;
  institute: string | null;
  street: string | null;
  suite: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  shippingRequest: (typeof SHIPPING_REQUESTS)[number] | null;
  account: { id: string | null; name: string | null } | null;
}

export const kitRequestSchema = auditedSchema(
  {
    testKitType: { type: String, enum: KIT_TYPES, required: true },
    numberOfKits: { type: Number, required: true, min: 1 },
    recipient: str,
    institute: str,
    street: str,
    suite: str,
    city: str,
    state: str,
    postalCode: str,
    shippingRequest: { type: String, enum: SHIPPING_REQUESTS, default: null },
    account: { type: sub({ id: str, name: str }), default: null },
  },
  { collection: 'kit_requests' },
);

// kits list: filter createdBy with the sort createdOn DESC
kitRequestSchema.index({ createdBy: 1, createdOn: -1 });
// kits list: data scope by account
kitRequestSchema.index({ 'account.id': 1 });

export function kitRequestModel(conn: Connection): Model<KitRequestDoc> {
  return (
    (conn.models.KitRequest as Model<KitRequestDoc>) ??
    conn.model<KitRequestDoc>('KitRequest', kitRequestSchema)
  );
}

/**
 * The messages service's own copy of a submitted requisition's data scope, fed by requisition-submitted events
 * (the service never reads the requisitions collection, design.md). `_id` is the requisition id. Collection
 * `message_requisition_scopes`.
 */
export interface RequisitionScopeDoc {
  _id: string;
  testRequisitionId: string | null;
  accountId: string;
  physicianId: string;
  patientId: string;
  submittedOn: Date;
  updatedOn: Date;
}

export const requisitionScopeSchema = new Schema(
  {
    _id: { type: String, required: true },
    testRequisitionId: str,
    accountId: { type: String, required: true },
    physicianId: { type: String, required: true },
    patientId: { type: String, required: true },
    submittedOn: { type: Date, required: true },
    updatedOn: { type: Date, default: () => new Date() },
  },
  { collection: 'message_requisition_scopes', versionKey: false, minimize: false, strict: true },
);
// read by _id only (the comment routes' scope check): no other index

export function requisitionScopeModel(conn: Connection): Model<RequisitionScopeDoc> {
  return (
    (conn.models.RequisitionScope as Model<RequisitionScopeDoc>) ??
    conn.model<RequisitionScopeDoc>('RequisitionScope', requisitionScopeSchema)
  );
}
