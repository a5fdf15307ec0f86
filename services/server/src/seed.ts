import { ROLE_PERMISSIONS, ROLES, type Role } from '@onco/domain';
import { hashPassword, identityModels } from '@onco/identity';
import { createReferenceModule } from '@onco/reference';
import { labModels, seedDomainPreferences } from '@onco/lab';
import type { PlatformContext } from '@onco/platform';
import { billingModels, upsertBillingSpecialists } from '@onco/billing';

/** Demo login for a role: the role name without ROLE_, lower-case, with _ as . (ROLE_PORTAL_ADMIN → portal.admin). */
export const demoLogin = (role: Role) =>
  role
    .replace(/^ROLE_/, '')
    .toLowerCase()
    .replace(/_/g, '.');

/**
 * Demo data for `npm start` (DEMO_MODE only; loadConfig refuses DEMO_MODE in production): reference data when
 * the database is empty, then one user per role associated with the first account, plus npi.other of the
 * second account only. Idempotent: existing users are left alone.
 */
export async function seedDemo(ctx: PlatformContext): Promise<{ created: string[] }> {
  if (!ctx.config.DEMO_MODE) return { created: [] };
  const reference = createReferenceModule(ctx);
  const ref = await reference.seedReference();
  const [first, second] = ref.accounts;
  const physiciansOf = (accountId: string) => ref.physicians.filter((p) => p.accountIds.includes(accountId));
  const { User } = identityModels(ctx.mongo);
  const hash = await hashPassword(ctx.config.DEMO_PASSWORD);
  const created: string[] = [];
  const providerOf: Partial<Record<Role, string | undefined>> = {
    ROLE_NPI: physiciansOf(first.id)[0]?.id,
    ROLE_PHYSICIAN: physiciansOf(first.id)[1]?.id,
    ROLE_ADDITIONAL_PHYSICIAN: physiciansOf(first.id)[2]?.id,
  };
  const users: Array<{
    loginId: string;
    role: Role;
    account: { id: string; name: string };
    physicianId?: string;
  }> = [
    ...ROLES.map((role) => ({
      loginId: demoLogin(role),
      role,
      account: first,
      physicianId: providerOf[role],
    })),
    { loginId: 'npi.other', role: 'ROLE_NPI', account: second, physicianId: physiciansOf(second.id)[0]?.id },
  ];
  for (const u of users) {
    if (await User.exists({ loginId: u.loginId })) continue;
    const phys = u.physicianId ? ref.physicians.find((p) => p.id === u.physicianId) : undefined;
    const [firstName, ...rest] = (
      phys?.name ?? `Demo ${u.role.replace('ROLE_', '').replace(/_/g, ' ').toLowerCase()}`
    )
      .replace(/^Dr\.?\s+/, '')
      .split(' ');
    await User.create({
      loginId: u.loginId,
      email: `${u.loginId}@demo.oncotrf.example.org`,
      firstName: firstName[0].toUpperCase() + firstName.slice(1),
      // 'Demo portal admin' -> Demo / Portal Admin (the profile menu shows "Demo P.")
      lastName: rest.map((w) => w[0].toUpperCase() + w.slice(1)).join(' ') || 'User',
      role: u.role,
      status: 'ACTIVE',
      authenticationProvider: 'OKTA',
      account: u.account,
      physicianId: u.physicianId ?? null,
      passwordHash: hash,
      passwordHistory: [hash],
      createdBy: 'seed',
    });
    created.push(u.loginId);
  }
  // the billing specialists (Assign Billing User): the demo users whose role has the billing actions, kept by the
  // billing service in its own billing_specialists collection (services never read each other's collections)
  const billingRoles = ROLES.filter((r) => ROLE_PERMISSIONS[r].includes('VIEW_BILLING_ACTIONS'));
  const billers = await User.find({ role: { $in: billingRoles }, deleted: { $ne: true } })
    .lean<{ _id: string; firstName: string; lastName: string; email: string | null }[]>()
    .exec();
  await upsertBillingSpecialists(
    billingModels(ctx.mongo).BillingSpecialist,
    billers.map((u) => ({ id: u._id, name: `${u.firstName} ${u.lastName}`.trim(), email: u.email })),
  );
  // the lab's domain preferences (work order and product data of samples), idempotent by id
  await seedDomainPreferences(labModels(ctx.mongo));
  ctx.logger.info({ users: created.length }, 'demo data ready');
  return { created };
}
