import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * The stand-in's claim documents (docs/billing-gateway.md "The claim's documents"):
 * `POST /claims/:key/documents` takes one PDF backing a stored claim, with an `Idempotency-Key` header (the
 * platform sends `{claimKey}:{kind}:{fileId}`), `X-Document-Kind` (REPORT or TRF) and `X-File-Name`
 * (URI-encoded). A document taken is stored under its key (one JSON file per key in `dir/documents`, written before
 * the answer: its name, size and SHA-256, not its bytes) and the same key always gets the stored answer back
 * (`replayed: true`). Refusals are not stored, so a later try is decided anew.
 *
 * The claim's billing code decides (case-insensitive prefix, after a `FAIL<n>-`): `DOCF` refuses every document,
 * `DOCP` refuses the TRF and takes the report (the claim itself is accepted for both); a body that is not a PDF is
 * refused; anything else is taken. `GET /claims/:key/documents` lists a claim's documents.
 */

export interface StoredDocument {
  key: string;
  claimKey: string;
  kind: string;
  fileName: string;
  size: number;
  sha256: string;
  documentId: string;
  receivedOn: string;
}

/** The largest document taken (the report and TRF PDFs are well under it). */
const DOCUMENT_LIMIT = 50 * 1024 * 1024;
const KINDS = new Set(['REPORT', 'TRF']);

const fileOf = (dir: string, key: string) => path.join(dir, `${encodeURIComponent(key)}.json`);

async function loadDocuments(dir: string): Promise<Map<string, StoredDocument>> {
  const out = new Map<string, StoredDocument>();
  for (const f of (await readdir(dir)).filter((n) => n.endsWith('.json'))) {
    try {
      const d = JSON.parse(await readFile(path.join(dir, f), 'utf8')) as StoredDocument;
      if (d?.key) out.set(d.key, d);
    } catch {
      // written then renamed: never torn; ignore stray files
    }
  }
  return out;
}

/** Which kinds the claim's billing code refuses. */
function refusedKinds(billingCode: string): Set<string> {
  const code = billingCode
    .trim()
    .toUpperCase()
    .replace(/^FAIL\d+-/, '');
  if (code.startsWith('DOCF')) return new Set(KINDS);
  if (code.startsWith('DOCP')) return new Set(['TRF']);
  return new Set();
}

export interface StandinDocuments {
  documents(): StoredDocument[];
  /** how many POSTs a document key received (stored or not) since start */
  posts(key: string): number;
  /** the next `n` document POSTs answer 503 (a billing system busy for a while) */
  failNext(n: number): void;
}

export async function registerStandinDocuments(
  app: FastifyInstance,
  opts: {
    dir: string;
    /** the stored claim's billing code, or null when no claim is stored under the key */
    billingCodeOf: (claimKey: string) => string | null;
    isDown: () => boolean;
  },
): Promise<StandinDocuments> {
  const dir = path.join(opts.dir, 'documents');
  await mkdir(dir, { recursive: true });
  const stored = await loadDocuments(dir);
  const posts = new Map<string, number>();
  let failing = 0;
  const refuse = (code: string, message: string) => ({ status: 'REFUSED', errors: [{ code, message }] });

  await app.register(async (scope) => {
    scope.addContentTypeParser(
      ['application/pdf', 'application/octet-stream'],
      { parseAs: 'buffer', bodyLimit: DOCUMENT_LIMIT },
      (_req, body, done) => done(null, body),
    );

    scope.get<{ Params: { key: string } }>('/claims/:key/documents', async (req) => {
      const content = [...stored.values()].filter((d) => d.claimKey === req.params.key);
      return { content, totalElements: content.length };
    });

    scope.post<{ Params: { key: string }; Body: Buffer }>(
      '/claims/:key/documents',
      { bodyLimit: DOCUMENT_LIMIT },
      async (req, reply) => {
        const key = req.headers['idempotency-key'];
        if (typeof key !== 'string' || !key.trim() || key.length > 300)
          return reply
            .status(400)
            .send(refuse('KEY', 'The Idempotency-Key header is required (1 to 300 characters)'));
        posts.set(key, (posts.get(key) ?? 0) + 1);
        if (failing > 0 || opts.isDown()) {
          failing = Math.max(0, failing - 1);
          return reply.status(503).send({
            status: 'UNAVAILABLE',
            errors: [{ code: 'DOWN', message: 'The billing system is unavailable' }],
          });
        }
        const known = stored.get(key);
        if (known) return { ...known, status: 'STORED', replayed: true };
        const billingCode = opts.billingCodeOf(req.params.key);
        if (billingCode === null)
          return reply.status(404).send(refuse('CLAIM', `No claim under ${req.params.key}`));
        const kind = String(req.headers['x-document-kind'] ?? '').toUpperCase();
        if (!KINDS.has(kind))
          return reply.status(400).send(refuse('KIND', 'X-Document-Kind must be REPORT or TRF'));
        const body = req.body;
        if (!Buffer.isBuffer(body) || body.subarray(0, 5).toString('latin1') !== '%PDF-')
          return reply.status(422).send(refuse('DOC-602', 'The document is not a PDF'));
        if (refusedKinds(billingCode).has(kind))
          return reply
            .status(422)
            .send(
              refuse(
                'DOC-601',
                `The ${kind === 'TRF' ? 'TRF' : 'report'} could not be indexed for this claim`,
              ),
            );
        let fileName = `${kind}.pdf`;
        try {
          fileName = decodeURIComponent(String(req.headers['x-file-name'] ?? fileName)).slice(0, 300);
        } catch {
          // a name that is not URI-encoded: kept as the kind's default
        }
        const doc: StoredDocument = {
          key,
          claimKey: req.params.key,
          kind,
          fileName,
          size: body.length,
          sha256: createHash('sha256').update(body).digest('hex'),
          documentId: `DOC-${String(stored.size + 1).padStart(7, '0')}`,
          receivedOn: new Date().toISOString(),
        };
        const file = fileOf(dir, key);
        const tmp = `${file}.${randomUUID()}.tmp`;
        await writeFile(tmp, JSON.stringify(doc, null, 2));
        await rename(tmp, file);
        stored.set(key, doc);
        return { ...doc, status: 'STORED', replayed: false };
      },
    );
  });

  return {
    documents: () => [...stored.values()],
    posts: (key) => posts.get(key) ?? 0,
    failNext: (n) => void (failing = n),
  };
}
