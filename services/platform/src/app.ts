import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { authPlugin, type SessionResolver } from './auth';
import { installErrorHandler } from './error-handler';
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
    trustProxy: true,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('platform', ctx);
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  installErrorHandler(app as unknown as FastifyInstance);
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
  await app.register(authPlugin, { secret: ctx.config.TOKEN_SECRET, resolveSession });
  return app as unknown as FastifyInstance;
}
