import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  QUEUE_BOARD_AUDIENCE,
  QUEUE_BOARD_COOKIE,
  QUEUE_BOARD_PATH,
  requireUser,
  signToken,
  type QueueRegistry,
} from '@onco/platform';

/** A <link> of the page to a web font on Google's servers (fonts.googleapis.com / fonts.gstatic.com). */
export const THIRD_PARTY_FONTS =
  /<link\b[^>]*\bhref="https:\/\/fonts\.(?:googleapis|gstatic)\.com[^"]*"[^>]*>\s*/g;

/** How long the dashboard's cookie opens it (then the console's menu entry sets a new one). */
export const QUEUE_BOARD_TTL_S = 60 * 60;

/**
 * The queue dashboard for operators: bull-board (@bull-board/fastify) over every queue of the process, at
 * QUEUE_BOARD_PATH, read-only: counts, waiting, active, delayed, failed and completed jobs with their data,
 * attempts, logs and failure reasons. It changes nothing (every queue in bull-board's read-only mode, and the
 * guard answers 405 to anything but GET/HEAD under the path): a failed job is retried by the product's own
 * paths (each queue's requeue sweep, Submit again, re-upload), which re-read their records first.
 *
 * Signing in: the console's profile menu (VIEW_OPERATIONS) calls `POST /portal/api/v1/operations/queueBoard` with
 * its bearer token, which sets an HttpOnly, SameSite=Strict cookie scoped to the dashboard's path holding a token
 * for the dashboard alone (QUEUE_BOARD_TTL_S, never past the bearer token's expiry), then opens the dashboard in a
 * tab. The console's Log out calls `DELETE` on the same path, which removes the cookie. The guard (platform auth.ts)
 * checks that cookie on every request under the path: signature, expiry, the user still active with the same
 * token version (a password change closes it) and VIEW_OPERATIONS. docs/decisions.md "Queue dashboard".
 */
export async function queueBoard(
  app: FastifyInstance,
  opts: { queues: QueueRegistry; secret: string; publicUrl: string },
): Promise<void> {
  const cookie = (req: FastifyRequest, maxAge: number) => ({
    path: QUEUE_BOARD_PATH,
    httpOnly: true,
    sameSite: 'strict' as const,
    // Secure when the console is served over https (PUBLIC_URL), or this request came over https
    secure: opts.publicUrl.startsWith('https:') || req.protocol === 'https',
    maxAge,
  });
  const adapter = new FastifyAdapter();
  adapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: opts.queues.names().flatMap((name) => {
      const q = opts.queues.get(name);
      return q ? [new BullMQAdapter(q, { readOnlyMode: true })] : [];
    }),
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: 'oncotrf queues' } },
  });
  await app.register(
    async (board) => {
      // bull-board's page links a web font from Google; this product makes no third-party requests (the CSP
      // refuses them), so the link is taken out of the page and the board uses the system's sans-serif font
      board.addHook('onSend', async (_req, reply, payload) => {
        if (typeof payload !== 'string' || !String(reply.getHeader('content-type')).startsWith('text/html'))
          return payload;
        return payload.replace(THIRD_PARTY_FONTS, '');
      });
      await board.register(adapter.registerPlugin());
    },
    { prefix: QUEUE_BOARD_PATH },
  );

  app.post(
    '/portal/api/v1/operations/queueBoard',
    {
      config: { permission: 'VIEW_OPERATIONS' },
      schema: {
        tags: ['operations'],
        summary: 'Open the queue dashboard: sets its cookie and answers where it is',
        description:
          `Sets the HttpOnly cookie \`${QUEUE_BOARD_COOKIE}\` (path ${QUEUE_BOARD_PATH}, SameSite=Strict, ` +
          `${QUEUE_BOARD_TTL_S / 60} minutes) that opens the read-only queue dashboard in a browser tab.`,
        response: { 200: z.object({ url: z.string() }) },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const now = Math.floor(Date.now() / 1000);
      // never longer than the console's own sign-in
      const exp = Math.min(now + QUEUE_BOARD_TTL_S, req.tokenExpiresAt ?? now + QUEUE_BOARD_TTL_S);
      const token = signToken(
        { sub: user.id, role: user.role, tv: user.tokenVersion, iat: now, exp, aud: QUEUE_BOARD_AUDIENCE },
        opts.secret,
      );
      reply.setCookie(QUEUE_BOARD_COOKIE, token, cookie(req, Math.max(0, exp - now)));
      return { url: `${QUEUE_BOARD_PATH}/` };
    },
  );

  // the console's Log out calls this, so the dashboard closes with the sign-in (the cookie is HttpOnly: the page
  // cannot remove it). Public: it only removes this browser's dashboard cookie, and a sign-out must work with an
  // expired token too.
  app.delete(
    '/portal/api/v1/operations/queueBoard',
    {
      config: { public: true },
      schema: {
        tags: ['operations'],
        summary: 'Close the queue dashboard in this browser: removes its cookie',
        // z.undefined(): the document says 204 has no body (z.null() documented a JSON body it never has)
        response: { 204: z.undefined() },
      },
    },
    async (req, reply) => {
      reply.clearCookie(QUEUE_BOARD_COOKIE, cookie(req, 0));
      return reply.status(204).send();
    },
  );
}
