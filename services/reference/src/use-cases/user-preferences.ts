import { badRequest, conflict, toApi, type SessionUser } from '@onco/platform';
import { stableId } from '../ids';
import type { UserPreferenceDoc } from '../models';
import type { ReferenceDeps } from './deps';

export const MAX_PREFERENCE_BYTES = 64 * 1024;

/** One of the user's preferences to save: its name, its content and the version read. */
export interface UserPreferenceInput {
  name: string;
  /** JSON text, or any JSON value (stored as its text) */
  content: unknown;
  /** the version read; a stale one is a 409 */
  version?: number;
}

/** A saved preference as replies show it (its id, not _id). */
export type SavedUserPreference = Omit<UserPreferenceDoc, '_id'> & { id: string };

/** The content as stored: JSON text (a string must be JSON already), at most MAX_PREFERENCE_BYTES (400s). */
function contentText(raw: unknown): string {
  let text: string;
  if (typeof raw === 'string') {
    try {
      JSON.parse(raw);
    } catch {
      throw badRequest('content must be JSON text', { field: 'content' });
    }
    text = raw;
  } else {
    text = JSON.stringify(raw ?? null);
  }
  if (Buffer.byteLength(text, 'utf8') > MAX_PREFERENCE_BYTES) {
    throw badRequest(`content is longer than ${MAX_PREFERENCE_BYTES} bytes`, { field: 'content' });
  }
  return text;
}

/**
 * Save one of the user's own preferences by name. One record per user and name, addressed by an id derived
 * from both (a second insert of the same id is refused). A save is one update conditional on the version given
 * (none: the current record, whatever its version); a record not there yet is inserted. A stale version is a 409.
 */
export async function saveUserPreference(
  { models }: ReferenceDeps,
  user: SessionUser,
  input: UserPreferenceInput,
): Promise<SavedUserPreference> {
  const { name, version } = input;
  const content = contentText(input.content);
  const id = stableId('userPreference', `${user.id}\u0000${name}`);
  const save = () =>
    models.UserPreference.findOneAndUpdate(
      { _id: id, userId: user.id, ...(version !== undefined ? { version } : {}) },
      {
        $set: { content, deleted: false, updatedOn: new Date(), updatedBy: user.id },
        $inc: { version: 1 },
      },
      { returnDocument: 'after' },
    )
      .lean()
      .exec();
  for (let attempt = 0; attempt < 2; attempt++) {
    const updated = await save();
    if (updated) return toApi(updated);
    // not at the version given (a record asked at version n > 0 that is not there, too): stale
    if (version !== undefined && version !== 0) throw conflict();
    try {
      const created = await models.UserPreference.create({
        _id: id,
        userId: user.id,
        name,
        content,
        createdBy: user.id,
        updatedBy: user.id,
      });
      return toApi(created.toObject());
    } catch (err: any) {
      if (err?.code !== 11000) throw err;
      // there already: not at version 0 (a 409), or, without a version, saved over on the next attempt
      if (version === 0) throw conflict();
    }
  }
  throw conflict();
}
