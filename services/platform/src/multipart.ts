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
