import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { authPlugin, type SessionResolver } from './auth';
import { auditPlugin } from './audit/plugin';
import { auditTrailOf } from './audit/trail';
import { installErrorHandler } from './error-handler';
import { refuseUnsplittableMultipart } from './multipart';
import type { PlatformContext } from './context';

export type App = FastifyInstance;

/**
 * The base Fastify app every process uses: request ids, redacting logger, zod validation and serialization,
 * the OpenAPI document (/docs/json) and its page (/docs), one error shape, and the route guard.
 */
export async function createBaseApp(
  ctx: PlatformContext,
  resolveSession: SessionResolver,
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.logger as Logger,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    bodyLimit: 5 * 1024 * 1024,
    // whose X-Forwarded-* headers count (TRUST_PROXY; a forged X-Forwarded-For must not escape a rate limit)
    trustProxy: ctx.config.TRUST_PROXY,
    forceCloseConnections: 'idle',
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('platform', ctx);
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  installErrorHandler(app as unknown as FastifyInstance);
  // every multipart route (whichever plugin registers @fastify/multipart): a boundary the parser cannot split the
  // body on is a 400 before the route's handler runs (multipart.ts)
  app.addHook('preValidation', refuseUnsplittableMultipart);
  // security headers on every answer (docs/decisions.md "Security headers"): the console runs from this origin
  // only; styles inline (MUI's emotion); PDFs shown from blob: URLs in a frame; no framing by other sites; plain
  // http stays http (a local or test server)
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", 'blob:'],
        objectSrc: ["'self'", 'blob:'],
        workerSrc: ["'self'", 'blob:'],
        frameAncestors: ["'self'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
  });
  // rate limits only where a route asks for one (rate-limits.ts `rateLimitHook`, e.g. sign-in); counted in this
  // process's memory, so a Redis outage never stands between a user and signing in
  await app.register(rateLimit, { global: false, cache: 10_000 });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'OncoTRF API',
        version: '1.0.0',
        description: 'Ordering and tracking of genomic cancer tests',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  // cookies are read by the queue dashboard's guard only (auth.ts); the API itself takes bearer tokens
  await app.register(cookie);
  await app.register(authPlugin, { secret: ctx.config.TOKEN_SECRET, resolveSession });
  // PHI routes (config.audit) record each read before replying; use cases record changes (docs/audit.md)
  await app.register(auditPlugin, { trail: auditTrailOf(ctx) });
  return app as unknown as FastifyInstance;
}
