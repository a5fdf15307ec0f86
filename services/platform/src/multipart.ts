import type { FastifyRequest } from 'fastify';
import { MSG } from '@onco/domain';
import { badRequest, tooLarge } from './errors';

/** How far a declared Content-Length may pass a route's file limit (the other parts and the multipart framing). */
const FRAMING_ALLOWANCE = 1024 * 1024;

export const MULTIPART_EXPECTED = 'Expected a multipart/form-data upload with a file';
export const MULTIPART_NO_BOUNDARY =
  'The multipart/form-data upload has no boundary in its Content-Type: send the file as a form ' +
  '(browsers and HTTP clients add the boundary themselves when they build the form)';

/**
 * What every upload route checks before it reads a byte: a multipart/form-data body, with the boundary its parts
 * are split on (without one the parser cannot read the body at all), and, given the route's file limit, a declared
 * Content-Length not far above it (refused at once with the spec's size text).
 */
export function requireMultipartUpload(req: FastifyRequest, maxFileBytes?: number): void {
  if (!req.isMultipart()) throw badRequest(MULTIPART_EXPECTED);
  if (!/;\s*boundary=("[^"]+"|[^;\s]+)/i.test(req.headers['content-type'] ?? ''))
    throw badRequest(MULTIPART_NO_BOUNDARY);
  if (maxFileBytes === undefined) return;
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > maxFileBytes + FRAMING_ALLOWANCE)
    throw tooLarge(MSG.attachmentTooLarge);
}
