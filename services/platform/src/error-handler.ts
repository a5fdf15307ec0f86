import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { MSG } from '@onco/domain';
import { AppError, type ErrorBody } from './errors';

function describeZod(issues: Array<{ instancePath?: string; message?: string; params?: any }>): string {
  return issues
    .map((i) => {
      const path = (i.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
      return path ? `${path}: ${i.message}` : String(i.message);
    })
    .join('; ');
}

/** One error path: typed AppErrors keep their status and message; anything unknown is a 500 with the generic text. */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError & { validation?: any }, req, reply) => {
    let body: ErrorBody;
    if (err instanceof AppError) {
      body = {
        status: err.statusCode,
        code: err.code,
        message: err.message,
        ...(err.details ? { details: err.details } : {}),
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
    } else if (isResponseSerializationError(err)) {
      req.log.error({ err }, 'reply did not match its schema');
      body = { status: 500, code: 'INTERNAL', message: MSG.generic };
    } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      // fastify's own client errors: bad JSON, body too large, unsupported media type, ...
      body = { status: err.statusCode, code: err.code ?? 'BAD_REQUEST', message: err.message };
    } else {
      req.log.error({ err }, 'unhandled error');
      body = { status: 500, code: 'INTERNAL', message: MSG.generic };
    }
    body.requestId = String(req.id);
    if (body.status >= 500 && !(err instanceof AppError))
      req.log.error({ code: body.code }, 'request failed');
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
