import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { MSG } from '@onco/domain';
import { badRequest, tooLarge, type AppError } from './errors';

/** How far a declared Content-Length may pass a route's file limit (the other parts and the multipart framing). */
const FRAMING_ALLOWANCE = 1024 * 1024;

export const MULTIPART_EXPECTED = 'Expected a multipart/form-data upload with a file';
export const MULTIPART_NO_BOUNDARY =
  'The multipart/form-data upload has no boundary in its Content-Type: send the file as a form ' +
  '(browsers and HTTP clients add the boundary themselves when they build the form)';
export const MULTIPART_BAD_BOUNDARY =
  'The boundary in the multipart/form-data Content-Type is not valid (1 to 70 letters, digits or ' +
  "'()+_,-./:=? characters, RFC 2046): send the file as a form (browsers and HTTP clients choose a valid " +
  'boundary themselves)';
export const MULTIPART_MALFORMED =
  'The multipart/form-data body ended early or does not use the boundary its Content-Type names: send the ' +
  'whole file as a form (browsers and HTTP clients build the body and its boundary themselves)';

/** RFC 2046: 1 to 70 bchars, the last not a space. */
const VALID_BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/** The boundary a Content-Type names (its quotes removed); '' when it names none. */
function boundaryOf(contentType: string): string {
  const m = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  return m ? (m[1] ?? m[2] ?? '') : '';
}

/**
 * The one rule for a multipart/form-data Content-Type: what is wrong with its boundary (the parser splits the
 * body on it and cannot read the body without one, nor with one over 256 characters), or undefined.
 */
export function multipartBoundaryProblem(contentType: string | undefined): string | undefined {
  const boundary = boundaryOf(contentType ?? '');
  if (!boundary) return MULTIPART_NO_BOUNDARY;
  return VALID_BOUNDARY.test(boundary) ? undefined : MULTIPART_BAD_BOUNDARY;
}

/**
 * Every upload route, before its handler (a preValidation hook of the base app, app.ts): a multipart body whose
 * boundary its parser cannot split on is a 400 naming the problem, whether or not the route calls
 * requireMultipartUpload. An upload route is one whose schema says it `consumes` multipart/form-data; the JSON
 * routes beside it (in a plugin that registered @fastify/multipart) refuse such a body by their body schema, and
 * a route that reads parts without saying so still gets a 400 from the error handler (unreadableMultipart).
 */
export async function refuseUnsplittableMultipart(req: FastifyRequest): Promise<void> {
  const consumes = (req.routeOptions.schema as { consumes?: readonly string[] } | undefined)?.consumes;
  if (!consumes?.includes('multipart/form-data')) return;
  if (typeof req.isMultipart === 'function' && req.isMultipart()) refuseBadBoundary(req);
}

function refuseBadBoundary(req: FastifyRequest): void {
  const problem = multipartBoundaryProblem(req.headers['content-type']);
  if (problem) throw badRequest(problem, { header: 'content-type' });
}

/** What busboy (@fastify/multipart's parser) throws for a body it cannot read: plain Errors, no status. */
const PARSER_ERRORS: Array<[RegExp, string]> = [
  [/^Multipart: Boundary not found$/, MULTIPART_NO_BOUNDARY],
  [/^The needle cannot (be an empty|have a length bigger)/, MULTIPART_BAD_BOUNDARY],
  [/^(\w+ terminated early due to )?unexpected end of (multipart data|form)$/i, MULTIPART_MALFORMED],
  [/^Malformed part header$/, MULTIPART_MALFORMED],
];

/**
 * A multipart body the parser could not read (it ended early, or never used the boundary its Content-Type
 * named): the client's fault and nothing was kept, so a 400 saying what to send (the error handler asks).
 */
export function unreadableMultipart(err: unknown): AppError | undefined {
  if (!(err instanceof Error) || (err as { statusCode?: unknown }).statusCode !== undefined) return undefined;
  for (const [re, message] of PARSER_ERRORS)
    if (re.test(err.message)) return badRequest(message, { header: 'content-type' });
  return undefined;
}

/**
 * What every upload route checks before it reads a byte: a multipart/form-data body, with a boundary its parts
 * can be split on (multipartBoundaryProblem), and, given the route's file limit, a declared Content-Length not
 * far above it (refused at once with the spec's size text).
 */
export function requireMultipartUpload(req: FastifyRequest, maxFileBytes?: number): void {
  if (!req.isMultipart()) throw badRequest(MULTIPART_EXPECTED);
  refuseBadBoundary(req);
  if (maxFileBytes === undefined) return;
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > maxFileBytes + FRAMING_ALLOWANCE)
    throw tooLarge(MSG.attachmentTooLarge);
}

/**
 * A multipart file stream that fails with the spec's 413 the moment its part passes the route's limit (the parser's
 * `limit` event), where it would otherwise end only with its part: the parser reads and drops the rest of an
 * over-limit part, so a route waiting for the end read the whole body before it refused it. Its destruction unpipes
 * the request from the parser (@fastify/multipart), so no more of the body is read, and the error reply closes the
 * connection (error-handler.ts). docs/decisions.md "Uploads over their limit".
 */
export function failAtLimit<S extends Readable>(file: S): S {
  file.once('limit', () => file.destroy(tooLarge(MSG.attachmentTooLarge)));
  return file;
}

/** What the server reads of a refused body after its answer, at most: a short linger (closeAfterAnswer). */
export const REFUSED_BODY_LINGER = { bytes: 8 * 1024 * 1024, ms: 2_000 };

/**
 * Before an error answer to a request whose body was not read to its end (an upload refused at its limit, or before
 * its first byte): the answer says `Connection: close`; once it is sent the connection is closed (FIN), what the
 * client still sends is read and dropped for at most REFUSED_BODY_LINGER, then the socket goes. Node would otherwise
 * read the whole rest of the body to keep the connection alive (or, with the parser unpiped, leave the client
 * stalled until the keep-alive timeout). The linger is the lingering close of HTTP servers: a connection closed on
 * unread data is reset, and a client that is still sending when its write fails may drop the answer it has not read
 * yet; after the FIN its writes still go through while it reads the answer. docs/decisions.md "Uploads over their
 * limit".
 */
export function closeAfterAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  linger = REFUSED_BODY_LINGER,
): void {
  const socket = req.socket;
  res.setHeader('connection', 'close');
  // Node ends a `Connection: close` answer's socket with destroySoon(), a reset on unread data: a FIN instead (what
  // Node itself does for a socket without destroySoon), and the socket destroyed after the linger below
  if (socket) socket.destroySoon = () => void socket.end();
  res.once('finish', () => {
    if (req.complete) return void socket?.end();
    let read = 0;
    const close = () => {
      clearTimeout(timer);
      socket?.destroy();
    };
    const timer = setTimeout(close, linger.ms);
    timer.unref();
    req.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > linger.bytes) close();
    });
    req.once('end', close);
    req.resume();
    socket?.end();
  });
}
