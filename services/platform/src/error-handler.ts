import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { MSG } from '@onco/domain';
import { AppError, type ErrorBody } from './errors';
import { closeAfterAnswer, unreadableMultipart } from './multipart';
import { dependencyMessage, dependencyOf } from '@onco/events';
import { isWriteConflict } from './transaction';

/** A write conflict no retry could settle (another request held the record longer than the retries waited). */
export const MSG_BUSY_RECORD = 'This record is being changed by another request. Try again in a moment.';

function describeZod(issues: Array<{ instancePath?: string; message?: string; params?: any }>): string {
  return issues
    .map((i) => {
      const path = (i.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
      return path ? `${path}: ${i.message}` : String(i.message);
    })
    .join('; ');
}

/** One field the model refused, in the product's words (a date it cannot hold is 'Invalid date', as in the forms). */
function fieldRefusal(f: { name?: string; kind?: string; message?: string }): string {
  if (f.kind === 'required') return MSG.required;
  if (f.kind === 'enum') return 'Invalid value';
  if (f.name === 'CastError' && /^date$/i.test(f.kind ?? '')) return 'Invalid date';
  if (f.name === 'CastError') return `Invalid value (expected ${String(f.kind).toLowerCase()})`;
  return String(f.message);
}

/**
 * A document the store's model refused before writing it (mongoose's ValidationError, or a CastError): the input
 * was wrong and nothing was written, so a 400 naming each field, not a 500. Routes validate their bodies first;
 * this catches what only the model knows (a required field sent as null, say).
 */
function modelRefusal(err: unknown): ErrorBody | undefined {
  const e = err as {
    name?: string;
    errors?: Record<string, { name?: string; kind?: string; path?: string; message?: string }>;
  };
  if (e?.name === 'CastError') {
    const c = err as { path?: string };
    return {
      status: 400,
      code: 'BAD_REQUEST',
      message: `Invalid request: ${c.path ?? 'a value'} has the wrong type`,
    };
  }
  if (e?.name !== 'ValidationError' || !e.errors || typeof e.errors !== 'object') return undefined;
  const fields: Record<string, string> = {};
  for (const [path, f] of Object.entries(e.errors)) fields[path] = fieldRefusal(f);
  const list = Object.entries(fields).map(([path, m]) => `${path}: ${m}`);
  return {
    status: 400,
    code: 'BAD_REQUEST',
    message: `Invalid request: ${list.join('; ')}`,
    details: { fields },
  };
}

/** One error path: typed AppErrors keep their status and message; anything unknown is a 500 with the generic text. */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError & { validation?: any }, req, reply) => {
    let body: ErrorBody;
    const refused = modelRefusal(err);
    // a multipart body its parser could not read is the client's (a 400 saying what to send), not a 500
    const known = err instanceof AppError ? err : unreadableMultipart(err);
    if (known) {
      body = {
        status: known.statusCode,
        code: known.code,
        message: known.message,
        ...(known.details ? { details: known.details } : {}),
      };
    } else if (hasZodFastifySchemaValidationErrors(err)) {
      const where = err.validationContext ?? 'request';
      body = {
        status: 400,
        code: 'BAD_REQUEST',
        message: `Invalid ${where}: ${describeZod(err.validation as any)}`,
      };
    } else if (err.validation) {
      body = { status: 400, code: 'BAD_REQUEST', message: `Invalid request: ${err.message}` };
    } else if (refused) {
      body = refused;
      // the fields only: the error's message and values are what was sent (a patient's name, a birth date)
      const fields = Object.keys(refused.details?.fields ?? {});
      req.log.warn(
        { fields: fields.length ? fields : [(err as { path?: string }).path], error: (err as Error).name },
        'the model refused a document',
      );
    } else if (isResponseSerializationError(err)) {
      req.log.error({ err }, 'reply did not match its schema');
      body = { status: 500, code: 'INTERNAL', message: MSG.generic };
    } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      // fastify's own client errors: bad JSON, body too large, unsupported media type, ...
      body = { status: err.statusCode, code: err.code ?? 'BAD_REQUEST', message: err.message };
    } else if (isWriteConflict(err)) {
      // the store's own conflict, passed on once inTransaction's retries gave up (a transaction of a process that
      // died holds the record until the store aborts it): the client's to retry, not a fault of ours
      req.log.warn({ error: (err as Error).name }, 'request failed: a write conflict outlasted its retries');
      body = { status: 409, code: 'CONFLICT', message: MSG_BUSY_RECORD };
    } else if (dependencyOf(err)) {
      // a service the platform runs on is away: its outage is logged where its client notices (one WARN)
      const dependency = dependencyOf(err)!;
      req.log.warn({ dependency, error: (err as Error).name }, 'request failed: a dependency is unavailable');
      body = {
        status: 503,
        code: 'DEPENDENCY_UNAVAILABLE',
        message: dependencyMessage(dependency),
        details: { dependency },
      };
    } else {
      req.log.error({ err }, 'unhandled error');
      body = { status: 500, code: 'INTERNAL', message: MSG.generic };
    }
    body.requestId = String(req.id);
    if (body.status >= 500 && !(err instanceof AppError) && body.code !== 'DEPENDENCY_UNAVAILABLE')
      req.log.error({ code: body.code }, 'request failed');
    // a body not read to its end (an upload refused while it streams, or before its first byte): read no more of
    // it than a short linger, then close the connection
    if (req.raw.complete === false) closeAfterAnswer(req.raw, reply.raw);
    reply.status(body.status).send(body);
  });
  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send({
      status: 404,
      code: 'NOT_FOUND',
      message: `No route ${req.method} ${req.url.split('?')[0]}`,
      requestId: String(req.id),
    });
  });
}
