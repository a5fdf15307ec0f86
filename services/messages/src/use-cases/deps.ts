import type { PlatformContext } from '@onco/platform';
import type { MessagesModels } from '../models';

/** Account names by id (the reference service's directory, wired by the server; names only). */
export interface AccountNames {
  get(id: string): Promise<{ id: string; name: string } | null>;
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
}
