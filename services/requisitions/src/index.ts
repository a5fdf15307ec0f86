export { createRequisitionsModule, type RequisitionsModule, type RequisitionsModuleOptions } from './module';
export * from './models';
export {
  BLANK_FORM_VERSION,
  blankFormHtml,
  type BlankFormOptions,
  type BlankFormVersion,
} from './pdf/blank-form';
export { createPdfRenderer, CHROMIUM_ARGS, type PdfRenderer, type PdfRendererOptions } from './pdf/render';
export {
  definePdfQueue,
  PDF_QUEUE,
  PDF_ATTEMPTS,
  PDF_BACKOFF_MS,
  blankFormJobId,
  blankFormDocumentId,
  pdfJobId,
  type PdfQueue,
  type PdfJobData,
  type BlankFormJob,
  type PdfJobResult,
} from './workers/pdf-queue';
export { BLANK_FORM_FILENAME, MSG_FORM_BEING_GENERATED, MSG_FORM_FAILED } from './routes/blank-form';
export { trfFormHtml } from './pdf/trf-form';
export { submissionKeyOf, TRF_CONCURRENCY, TRF_QUEUE, TRF_RENDER_PAGES, trfJobId } from './workers/trf-queue';
export { requisitionListScope, requisitionsResource } from './resource';
