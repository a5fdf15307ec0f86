import { Schema, type Connection, type Model } from 'mongoose';

/**
 * Documents the workers generate (the blank requisition form now; filled TRFs later). `_id` is a
 * deterministic key (e.g. `blank-form:102-210-C`) so a retried or duplicated job can never create a second
 * record: the worker inserts with an upsert + $setOnInsert and keeps whichever blob won. Looked up only by
 * _id: no extra index.
 */
export interface GeneratedDocumentDoc {
  _id: string;
  kind: string;
  formVersion: string;
  blobId: string;
  sha256: string;
  size: number;
  contentType: string;
  /** how long the render took, for operators */
  renderMs: number | null;
  createdOn: Date;
}

export const generatedDocumentSchema = new Schema<GeneratedDocumentDoc>(
  {
    _id: { type: String, required: true },
    kind: { type: String, required: true },
    formVersion: { type: String, required: true },
    blobId: { type: String, required: true },
    sha256: { type: String, required: true },
    size: { type: Number, required: true },
    contentType: { type: String, default: 'application/pdf' },
    renderMs: { type: Number, default: null },
    createdOn: { type: Date, default: () => new Date() },
  },
  { collection: 'generated_documents', versionKey: false },
);

export function generatedDocumentModel(conn: Connection): Model<GeneratedDocumentDoc> {
  return (
    (conn.models.GeneratedDocument as Model<GeneratedDocumentDoc>) ??
    conn.model<GeneratedDocumentDoc>('GeneratedDocument', generatedDocumentSchema)
  );
}
