import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { tooManyRequests } from './errors';

/**
 * An onRequest hook that allows `max` requests per `timeWindow` ms for each key (default: the client address),
 * counted by @fastify/rate-limit's store (registered in createBaseApp: this process's memory). Above it: 429 with
 * Retry-After and "Too many attempts. Please wait N seconds and try again."; the route's handler does not run.
 * Several hooks may guard one route (each its own key and count), unlike the plugin's own `rateLimit()` hook,
 * which runs once a request.
 */
export function rateLimitHook(
  app: FastifyInstance,
  opts: { max: number; timeWindow: number; key?: (req: FastifyRequest) => string },
): onRequestHookHandler {
  const limit = app.createRateLimit({
    max: opts.max,
    timeWindow: opts.timeWindow,
    ...(opts.key ? { keyGenerator: opts.key } : {}),
  });
  return async (req, reply) => {
    const r = await limit(req);
    if (r.isAllowed || !r.isExceeded) return;
    const seconds = Math.max(1, r.ttlInSeconds);
    reply.header('retry-after', String(seconds));
    throw tooManyRequests(seconds);
  };
}
