import { ATTACHMENT_KINDS } from './enums';
import type { Permission } from './permissions';

/**
 * The Attachment Box's upload rules (spec 3 sections 2.8, 7.2), shared by the requisitions service (which enforces
 * them) and the console's upload dialog.
 */

/** Attachment kinds only the system creates: the generated TRF and the lab's test report. */
type SystemAttachmentKind = 'TRF' | 'TEST_REPORT';
export type RequisitionUploadType = Exclude<(typeof ATTACHMENT_KINDS)[number], SystemAttachmentKind>;

/** The size limit of one attachment: 50MB (spec 1 section 9), enforced by the server while streaming. */
export const ATTACHMENT_MAX_BYTES = 50 * 1024 * 1024;

/** Who may attach files to a requisition (the wizard's step, a submitted order's Attachments tab): any of these. */
export const REQUISITION_ATTACH_PERMISSIONS: readonly Permission[] = ['CAN_CREATE_TRF', 'CAN_EDIT_TRF'];
export const canAttachToRequisition = (permissions: readonly string[]) =>
  REQUISITION_ATTACH_PERMISSIONS.some((p) => permissions.includes(p));

/** Kinds a user may attach to a requisition (spec 1 section 9): every attachment kind but the system's. */
export const REQUISITION_UPLOAD_TYPES: readonly RequisitionUploadType[] = ATTACHMENT_KINDS.filter(
  (k): k is RequisitionUploadType => k !== 'TRF' && k !== 'TEST_REPORT',
);

/** Kinds a user may upload to the Attachment Box without a requisition (spec 3 section 2.8). */
export const BOX_UPLOAD_TYPES = [...REQUISITION_UPLOAD_TYPES, 'SAMPLE_MANIFEST'] as const;
/** The upload dialog's default type (spec 3 section 2.8). */
export const BOX_DEFAULT_TYPE = 'SAMPLE_MANIFEST' as const;

/** Attachment Box file extensions (spec 3 section 2.8). */
export const BOX_EXTENSIONS = ['.xlsx', '.xls', '.csv', '.pdf'];
export const MSG_BOX_FILE_TYPE = 'Invalid file type. Please select a valid file (.xlsx, .xls, .csv, .pdf).';

/** Whether a file name has one of the Box's extensions (case-insensitive). */
export const isBoxFileName = (name: string) => BOX_EXTENSIONS.some((e) => name.toLowerCase().endsWith(e));
