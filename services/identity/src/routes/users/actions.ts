import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { USER_ACTIONS, statusAfter, userActionAllowed, type UserAction } from '@onco/domain';
import { AppError, badRequest, conflict, errorReplies, requireUser, typed } from '@onco/platform';
import { sendPasswordLink } from '../../credentials';
import type { UserDoc } from '../../models/user';
import { hashPassword } from '../../password-hash';
import { loadUser, publicUser, userReply, type UserRouteDeps } from './resource';

/**
 * PUT /users/:id/:action: activate, deactivate, unlock, resetpassword, reactivate, sendTemporaryPassword (each
 * allowed for some statuses only; a 409 otherwise), with the e-mail the action sends.
 */
export function registerUserActionRoute(app: FastifyInstance, { models, resolver }: UserRouteDeps) {
  const r = typed(app);
  const { config, mail } = app.platform;

  r.put(
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
    async (req) => {
      const user = requireUser(req);
      const action = req.params.action as UserAction;
      const current = await loadUser(models, user, req.params.id);
      if (current._id === user.id && action === 'deactivate')
        throw badRequest('You cannot deactivate yourself.');
      if (!userActionAllowed(action, current)) {
        throw new AppError(
          409,
          'ACTION_NOT_ALLOWED',
          `Cannot ${action} a user whose status is ${current.status}.`,
          {
            status: current.status,
            authenticationProvider: current.authenticationProvider,
          },
        );
      }
      const next = statusAfter(action);
      const set: Record<string, unknown> = { status: next, updatedOn: new Date(), updatedBy: user.id };
      if (action === 'unlock' || action === 'activate') set.failedLogins = 0;
      let temporary: string | undefined;
      if (action === 'sendTemporaryPassword') {
        temporary = `Tmp${randomBytes(6).toString('base64url')}9a`;
        set.passwordHash = await hashPassword(temporary);
        set.failedLogins = 0;
      }
      // conditional on the version and status the action was allowed for: a concurrent change is a 409
      const res = await models.User.updateOne(
        { _id: current._id, version: current.version, status: current.status },
        { $set: set, $inc: { version: 1, tokenVersion: 1 } },
      ).exec();
      if (res.matchedCount === 0) throw conflict();
      resolver.invalidate(current._id);
      const fresh = (await models.User.findById(current._id).lean().exec()) as UserDoc;
      if (action === 'resetpassword') await sendPasswordLink(models, config, mail, fresh, 'reset');
      if (action === 'reactivate') await sendPasswordLink(models, config, mail, fresh, 'activation');
      if (temporary) {
        await mail.send({
          to: fresh.email,
          subject: 'Your temporary Clinical Portal password',
          text: `Hello ${fresh.firstName},\n\nYour temporary password is: ${temporary}\nYou will be asked to change it when you sign in.\n`,
        });
      }
      return publicUser(fresh);
    },
  );
}
