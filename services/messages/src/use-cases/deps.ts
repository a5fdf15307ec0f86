import type { PlatformContext, SessionUser } from '@onco/platform';
import type { MessagesModels } from '../models';

/** Account names by id (the reference service's directory, wired by the server; names only). */
export interface AccountNames {
  get(id: string): Promise<{ id: string; name: string } | null>;
}

/** The patients a user may read (the reference service's registry, wired by the server). */
export interface ReadablePatients {
  readable(user: SessionUser, id: string): Promise<{ id: string; name: string | null } | null>;
}

/**
 * What every use case of messages takes first, as requisitions' take RequisitionDeps: its models; the platform
 * context (a kit request writes its two documents in one transaction on `ctx.mongo`); the account names for kit
 * requests (optional: without them a request keeps the account's id only).
 */
export interface MessagesDeps {
  models: MessagesModels;
  ctx: PlatformContext;
  accounts?: AccountNames;
  /** a new message's patient must be one the user may read (without them, a message names no patient) */
  patients?: ReadablePatients;
}
