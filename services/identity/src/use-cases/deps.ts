import type { Config, Mailer, PlatformContext } from '@onco/platform';
import type { IdentityModels } from '../models/user';
import type { Resolver } from '../session';

/** The reference module's account names (an interface, not its models). */
export interface AccountDirectory {
  get(id: string): Promise<{ id: string; name: string } | null>;
}

/** The reference module's physician names (an interface, not its models). */
export interface PhysicianDirectory {
  get(id: string): Promise<{ id: string; name: string } | null>;
}

/**
 * What every use case of identity takes first, as requisitions' take RequisitionDeps: its models, the session
 * cache (a change that ends or alters a session drops it), the platform's config and mail, and the reference
 * module's names.
 */
export interface IdentityDeps {
  models: IdentityModels;
  resolver: Resolver;
  config: Config;
  mail: Mailer;
  accounts: AccountDirectory;
  physicians: PhysicianDirectory;
}

/** What identity's routes are mounted with (the server's part): the deps but the platform's config and mail. */
export type IdentityRouteDeps = Omit<IdentityDeps, 'config' | 'mail'>;

/** What the password checks need (the module's own verifySignature has no more): models, config, the cache. */
export type CredentialDeps = Pick<IdentityDeps, 'models' | 'config' | 'resolver'>;

/** The deps of a route plugin: what it was mounted with and the platform's config and mail. */
export const identityDeps = (
  platform: Pick<PlatformContext, 'config' | 'mail'>,
  parts: IdentityRouteDeps,
): IdentityDeps => ({ ...parts, config: platform.config, mail: platform.mail });
