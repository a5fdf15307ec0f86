import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { Role } from '@onco/domain';
import { LOCAL_MONGO_URL, loadConfig, loggerOptions, mongoUrlWithDb, type Config } from '@onco/platform';
import { hashPassword, identityModels, type UserDoc } from '@onco/identity';
import { buildSystem, type System } from './system';

export const TEST_PASSWORD = 'Passw0rdTest';

/** Lines the system logged during a test, for redaction checks. */
export class LogCapture extends Writable {
  lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void) {
    this.lines.push(chunk.toString());
    cb();
  }
  get text() {
    return this.lines.join('');
  }
}

/**
 * A whole system against the real services, isolated per test file: its own database, queue prefix, topic
 * prefix, mailbox and file store. Workers (relay, consumers, BullMQ) only when asked.
 */
export async function createTestSystem(
  overrides: Partial<Record<keyof Config, string>> = {},
): Promise<System & { config: Config; logs: LogCapture; suffix: string }> {
  const suffix = randomBytes(4).toString('hex');
  const mongoUrl = mongoUrlWithDb(process.env.MONGO_URL ?? LOCAL_MONGO_URL, `oncotrf_test_${suffix}`);
  const tmp = path.join(os.tmpdir(), `oncotrf-test-${suffix}`);
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    MONGO_URL: mongoUrl,
    QUEUE_PREFIX: `test_${suffix}`,
    TOPIC_PREFIX: `test_${suffix}.`,
    KAFKA_CLIENT_ID: `oncotrf-test-${suffix}`,
    MAILBOX_DIR: path.join(tmp, 'mailbox'),
    FILE_STORE_DIR: path.join(tmp, 'files'),
    WORKERS: 'false',
    SERVE_CONSOLE: 'false',
    LOG_LEVEL: 'info',
    DEMO_MODE: 'false',
    // the suites sign in far more often than a person; rate-limits.int.test.ts turns the limits on
    AUTH_RATE_LIMIT_PER_MINUTE: '0',
    PASSWORD_RESET_PER_EMAIL_PER_HOUR: '0',
    ...overrides,
  });
  const logs = new LogCapture();
  const logger = pino(loggerOptions(config.LOG_LEVEL), logs);
  const system = await buildSystem(config, { logger });
  await system.app.ready();
  const close = system.close.bind(system);
  return {
    ...system,
    config,
    logs,
    suffix,
    async close() {
      await system.ctx.mongo.dropDatabase().catch(() => undefined);
      await close();
    },
  };
}

let counter = 0;
/** Create an ACTIVE user directly in the database (test set-up), with TEST_PASSWORD. */
export async function createUser(
  sys: System,
  role: Role,
  opts: Partial<Pick<UserDoc, 'account' | 'physicianId' | 'authenticationProvider' | 'status' | 'email'>> & {
    loginId?: string;
  } = {},
): Promise<UserDoc> {
  const { User } = identityModels(sys.ctx.mongo);
  const hash = await hashPassword(TEST_PASSWORD);
  counter += 1;
  const loginId =
    opts.loginId ??
    `${role.toLowerCase().replace('role_', '').replace(/_/g, '.')}.${counter}.${randomBytes(2).toString('hex')}`;
  const doc = await User.create({
    loginId,
    email: opts.email ?? `${loginId}@clinic.example.org`,
    firstName: 'Test',
    lastName: role.replace('ROLE_', ''),
    role,
    status: opts.status ?? 'ACTIVE',
    authenticationProvider: opts.authenticationProvider ?? 'OKTA',
    account: opts.account ?? null,
    physicianId: opts.physicianId ?? null,
    passwordHash: hash,
    passwordHistory: [hash],
  });
  return doc.toObject() as UserDoc;
}

export const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** Sign in through the API and return the bearer header. */
export async function login(
  sys: System,
  loginId: string,
  password = TEST_PASSWORD,
): Promise<{ authorization: string; body: any }> {
  const res = await sys.app.inject({
    method: 'POST',
    url: '/uam/api/v1/authenticate',
    payload: { username: b64(loginId), password: b64(password) },
  });
  if (res.statusCode !== 200) throw new Error(`login ${loginId} failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  return { authorization: `Bearer ${body.token}`, body };
}
