/** The `attachment` family: a file was uploaded as an attachment, or removed. */
import { z } from 'zod';
import { ALL_ATTACHMENT_TYPES } from '@onco/domain';
import { Actor } from './common';
import { id, instant } from './fields';

/** What an attachment event reports: a user uploaded a file, or removed (soft-deleted) one. */
export const ATTACHMENT_CHANGES = ['uploaded', 'deleted'] as const;
export const AttachmentChange = z.enum(ATTACHMENT_CHANGES);
export type AttachmentChange = z.infer<typeof AttachmentChange>;

export const AttachmentDataV1 = z
  .object({
    attachmentId: id('Attachment entity id; also the event subject'),
    change: AttachmentChange.describe("What happened: 'uploaded' or 'deleted' (a soft delete)"),
    type: z.enum(ALL_ATTACHMENT_TYPES).describe('Attachment type, e.g. SAMPLE_MANIFEST'),
    name: z.string().max(300).describe('File name as uploaded'),
    contentType: z.string().max(200).describe('Content type the client declared'),
    size: z.number().int().min(0).describe('Size in bytes'),
    sha256: z.string().max(64).nullable().describe('SHA-256 of the content (hex), null when unknown'),
    blobId: z
      .string()
      .max(200)
      .nullable()
      .describe(
        "The file's key in the platform's file store (for services on that store); others download it with GET /portal/api/v1/attachments/{attachmentId}/download",
      ),
    accountId: z.string().max(200).nullable().describe('Account the file belongs to, null when none'),
    accountName: z.string().max(300).nullable().describe('Account name at upload, null when unknown'),
    requisitionId: z
      .string()
      .max(200)
      .nullable()
      .describe('Requisition the file is attached to, null for an Attachment Box upload'),
    uploadedBy: Actor.describe('Who uploaded the file'),
    uploaderScope: z
      .object({
        allAccounts: z.boolean().describe('The uploader sees every account (lab, billing, operations staff)'),
        accountIds: z.array(z.string().max(200)).max(10_000).describe("The uploader's accounts"),
        physicianIds: z.array(z.string().max(200)).max(10_000).describe("The uploader's physicians"),
        mayEditSamples: z.boolean().describe('The uploader holds VIEW_SAMPLE_ACTIONS (may change samples)'),
      })
      .describe(
        "The uploader's data scope and sample permission at upload time: what a manifest's rows may change",
      ),
    changedBy: Actor,
    changedOn: instant('When the change was committed'),
  })
  .describe('A file was uploaded as an attachment, or an attachment was removed');

/**
 * schemaVersion 2 (additive): the uploader's role, so a consumer that acts for the uploader later (the lab applying
 * a sample manifest) names them in the audit trail as they were. A V1 reader still parses it (and drops the role).
 */
export const AttachmentDataV2 = AttachmentDataV1.extend({
  uploaderRole: z
    .string()
    .max(100)
    .nullable()
    .optional()
    .describe(
      "The uploader's role at the time (ROLE_...), null when the event's user is not the uploader (a delete by someone else); schemaVersion 2, absent in 1",
    ),
}).describe('A file was uploaded as an attachment, or an attachment was removed');
export type AttachmentData = z.infer<typeof AttachmentDataV2>;
