import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  BARCODE_DEFAULT_COUNT,
  BARCODE_DEFAULT_PREFIX,
  BARCODE_MAX_COUNT,
  BARCODE_MSG,
  BARCODE_PREFIX_MAX,
  BARCODE_PREFIX_PATTERN,
  BARCODE_REQUESTOR_MAX,
} from '@onco/domain';
import { dateOut, errorReplies, errorBody, requireUser, typed } from '@onco/platform';
import type { LabModels } from '../models';
import { issueBarcodes, printBarcodes, type PdfRender } from '../use-cases';

/**
 * Container barcodes (spec 3 sections 7.4, 8 "Barcode", 9.1), in the orders area (/oms/api/v1), for lab staff
 * who handle samples (VIEW_SAMPLE_ACTIONS); docs/decisions.md "Barcodes":
 *
 *   GET  /barcodes?requestor&count=1&prefix=PS  -> {content: [{barcode, prefix, sequence, requestor, createdBy,
 *                                                  createdOn}], totalElements}: new codes, never handed out again
 *   POST /barcodes/print {barcodes, reprint?}   -> application/pdf: their labels (Code 128), 30 to a Letter sheet
 */

const PERMISSION = 'VIEW_SAMPLE_ACTIONS' as const;

const issueQuery = z.object({
  requestor: z
    .string({ error: BARCODE_MSG.requestorRequired })
    .trim()
    .min(1, BARCODE_MSG.requestorRequired)
    .max(BARCODE_REQUESTOR_MAX, BARCODE_MSG.requestorRequired)
    .describe('Who asks for the codes (a name, a bench): recorded with each code'),
  count: z.coerce
    .number({ error: BARCODE_MSG.count })
    .int(BARCODE_MSG.count)
    .min(1, BARCODE_MSG.count)
    .max(BARCODE_MAX_COUNT, BARCODE_MSG.count)
    .default(BARCODE_DEFAULT_COUNT)
    .describe(`How many codes (1 to ${BARCODE_MAX_COUNT}; default ${BARCODE_DEFAULT_COUNT})`),
  prefix: z
    .string({ error: BARCODE_MSG.prefix })
    .trim()
    .toUpperCase()
    .max(BARCODE_PREFIX_MAX, BARCODE_MSG.prefix)
    .regex(BARCODE_PREFIX_PATTERN, BARCODE_MSG.prefix)
    .default(BARCODE_DEFAULT_PREFIX)
    .describe(`The codes' prefix (default ${BARCODE_DEFAULT_PREFIX}; lower case is taken as upper case)`),
});

const barcodeRow = z.object({
  barcode: z.string(),
  prefix: z.string(),
  sequence: z.number(),
  requestor: z.string(),
  createdBy: z.object({ id: z.string().nullable(), name: z.string().nullable() }),
  createdOn: dateOut,
});

const printBody = z.object({
  barcodes: z
    .array(z.string().trim().toUpperCase().min(1).max(40), { error: BARCODE_MSG.printCount })
    .min(1, BARCODE_MSG.printCount)
    .max(BARCODE_MAX_COUNT, BARCODE_MSG.printCount)
    .describe('Codes this system issued; each gets one label (a code listed twice is printed once)'),
  reprint: z
    .boolean()
    .default(false)
    .describe('Print codes whose labels were printed before (a damaged label); otherwise they are a 409'),
});

export async function barcodeRoutes(
  app: FastifyInstance,
  opts: { models: LabModels; pdf: PdfRender | null },
) {
  const r = typed(app);
  const deps = { models: opts.models, pdf: opts.pdf };

  r.get(
    '/barcodes',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['barcodes'],
        summary: 'Issue new container barcodes (prefix + zero-padded sequence, e.g. PS00000001)',
        description:
          'Each call hands out `count` codes no one has had before (one counter per prefix; every code issued ' +
          'is recorded with who asked and when, under a unique index). A GET because existing clients call it ' +
          'so; the reply is never cached. 400 for a bad parameter, and then nothing is issued.',
        querystring: issueQuery,
        response: {
          200: z.object({ content: z.array(barcodeRow), totalElements: z.number() }),
          ...errorReplies,
        },
      },
    },
    async (req, reply) => {
      const issued = await issueBarcodes(deps, requireUser(req), req.query);
      reply.header('Cache-Control', 'no-store');
      return {
        content: issued.map(({ barcode, prefix, sequence, requestor, createdBy, createdOn }) => ({
          barcode,
          prefix,
          sequence,
          requestor,
          createdBy,
          createdOn,
        })),
        totalElements: issued.length,
      };
    },
  );

  r.post(
    '/barcodes/print',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['barcodes'],
        summary: 'The printable labels of issued barcodes (a PDF: Code 128, 30 labels to a Letter sheet)',
        description:
          "400 naming any code this system did not issue. A code's first print creates its container: " +
          "printing it again is a 409 'Container already created for barcode …' unless `reprint` is true.",
        body: printBody,
        response: { 200: z.unknown().describe('The PDF'), ...errorReplies, 503: errorBody },
      },
    },
    async (req, reply) => {
      const { pdf, barcodes } = await printBarcodes(deps, requireUser(req), req.body);
      const name = `barcodes-${barcodes[0]}${barcodes.length > 1 ? `-${barcodes.length}` : ''}.pdf`;
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', `inline; filename="${name}"`)
        .header('Cache-Control', 'no-store')
        .send(pdf);
    },
  );
}
