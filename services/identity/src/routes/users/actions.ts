import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { USER_ACTIONS, type UserAction } from '@onco/domain';
import { errorReplies, requireUser, typed } from '@onco/platform';
import { applyUserAction, publicUser, type IdentityDeps } from '../../use-cases';
import { userReply } from './resource';

/**
 * PUT /users/:id/:action: activate, deactivate, unlock, resetpassword, reactivate, sendTemporaryPassword (each
 * allowed for some statuses only; a 409 otherwise), with the e-mail the action sends.
 */
export function registerUserActionRoute(app: FastifyInstance, deps: IdentityDeps) {
  typed(app).put(
    '/users/:id/:action',
    {
      config: { permission: 'CAN_MANAGE_USERS' },
      schema: {
        tags: ['users'],
        summary:
          'User action: activate, deactivate, unlock, resetpassword, reactivate, sendTemporaryPassword',
        params: z.object({ id: z.string().max(64), action: z.enum(USER_ACTIONS) }),
        response: { 200: userReply, ...errorReplies },
      },
    },
    async (req) =>
      publicUser(
        await applyUserAction(deps, requireUser(req), req.params.id, req.params.action as UserAction),
      ),
  );
}
