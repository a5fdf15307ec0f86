import type { FastifyInstance } from 'fastify';
import type { Admin, Kafka } from 'kafkajs';
import type { Redis } from 'ioredis';
import type { Connection } from 'mongoose';
import { z } from 'zod';
import type { OutboxRelay } from '@onco/events';
import { API } from '@onco/domain';
import { checkReadiness, type QueueRegistry } from '@onco/platform';

const readyReply = z.object({
  status: z.enum(['UP', 'DOWN']),
  mongo: z.boolean(),
  kafka: z.boolean(),
  redis: z.boolean(),
  down: z.array(z.string()).optional(),
});

/**
 * What an orchestrator and an operator ask a process: `/health` (alive), `/ready` (MongoDB, Kafka and Redis
 * answer; a 503 names what is down) and `GET /portal/api/v1/operations/queues` (VIEW_OPERATIONS: each queue's
 * counts and recent failures, and the outbox relay's figures in a process with workers).
 */
export async function healthRoutes(
  app: FastifyInstance,
  deps: {
    mongo: Connection;
    redis: Redis;
    kafkaAdmin: Admin;
    /** the admin's client (its outage in the log ends when the cluster answers) */
    kafka?: Kafka;
    queues: QueueRegistry;
    /** the relay once the workers have started (null in a process without workers) */
    relay: () => OutboxRelay | null;
  },
): Promise<void> {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: { tags: ['operations'], response: { 200: z.object({ status: z.literal('UP') }) } },
    },
    async () => ({ status: 'UP' as const }),
  );
  app.get(
    '/ready',
    {
      config: { public: true },
      schema: { tags: ['operations'], response: { 200: readyReply, 503: readyReply } },
    },
    async (_req, reply) => {
      const r = await checkReadiness(deps);
      const down = Object.entries(r)
        .filter(([, ok]) => !ok)
        .map(([k]) => k);
      reply.status(down.length ? 503 : 200);
      return {
        status: down.length ? ('DOWN' as const) : ('UP' as const),
        ...r,
        ...(down.length ? { down } : {}),
      };
    },
  );
  app.get(
    `${API.portal}/operations/queues`,
    { config: { permission: 'VIEW_OPERATIONS' }, schema: { tags: ['operations'] } },
    async () => {
      const relay = deps.relay();
      return {
        content: await deps.queues.overview(),
        outbox: relay
          ? {
              published: relay.metrics.published,
              failures: relay.metrics.failures,
              pending: await relay.pending(),
            }
          : null,
      };
    },
  );
}
