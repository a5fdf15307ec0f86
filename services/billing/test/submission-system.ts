import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  waitFor,
  createTestSystem,
  createUser,
  login,
  useTestSystem,
  type KafkaOption,
  type TestSystemSetup,
  type UserSpec,
} from '@onco/testing';
import type { Config } from '@onco/platform';
import {
  startGatewayStandin,
  type GatewayStandin,
  type GatewayStandinOptions,
} from '../src/submission/gateway-standin';
import { billingModels, type BillingCaseDoc, type BillingModels } from '../src/models';
import { importIcd10Fixture } from './fixtures';

/**
 * Test support for the submission worker's integration tests (not run-time code; `@onco/billing/testing`): a system that runs the
 * workers against a billing gateway at `gatewayUrl`, the ICD-10 fixture loaded, and an administrator signed in.
 */
export interface SubmissionTestSystem {
  sys: Awaited<ReturnType<typeof createTestSystem>>;
  billing: BillingModels;
  authorization: string;
  /** POST /billing/submit with these ids (one bulk call); expects 200 and every id submitted */
  submit(ids: string[]): Promise<void>;
  /** the cases once every one of them satisfies `done` */
  casesWhen(
    ids: string[],
    done: (d: BillingCaseDoc) => boolean,
    what: string,
    opts?: { timeoutMs?: number; intervalMs?: number },
  ): Promise<BillingCaseDoc[]>;
  close(): Promise<void>;
}

/** A fresh directory for a gateway stand-in's claims; removed by `removeGatewayDir`. */
export const gatewayDir = (tag: string) => mkdtempSync(path.join(os.tmpdir(), `billing-gateway-${tag}-`));
export const removeGatewayDir = (dir: string) => dir && rmSync(dir, { recursive: true, force: true });

export async function startSubmissionSystem(
  gatewayUrl: string,
  overrides: Record<string, string> = {},
): Promise<SubmissionTestSystem> {
  const sys = await createTestSystem({ WORKERS: 'true', BILLING_GATEWAY_URL: gatewayUrl, ...overrides });
  await importIcd10Fixture(sys.ctx.mongo);
  const billing = billingModels(sys.ctx.mongo);
  const admin = await createUser(sys, 'ROLE_ADMINISTRATOR');
  const { authorization } = await login(sys, admin.loginId);
  return {
    sys,
    billing,
    authorization,
    async submit(ids) {
      const res = await sys.app.inject({
        method: 'POST',
        url: '/bis/api/v1/billing/submit',
        headers: { authorization },
        payload: ids,
      });
      if (res.statusCode !== 200) throw new Error(`submit answered ${res.statusCode}: ${res.body}`);
      if (res.json().submitted !== ids.length)
        throw new Error(`submit sent ${res.json().submitted} of ${ids.length} cases: ${res.body}`);
    },
    casesWhen: (ids, done, what, opts = {}) =>
      waitFor(
        async () => {
          const docs = await billing.BillingCase.find({ _id: { $in: ids } })
            .lean<BillingCaseDoc[]>()
            .exec();
          return docs.length === ids.length && docs.every(done) ? docs : null;
        },
        { what, timeoutMs: opts.timeoutMs ?? 60_000, intervalMs: opts.intervalMs ?? 200 },
      ),
    close: () => sys.close(),
  };
}

/**
 * useTestSystem with a billing gateway stand-in of the file's own: started before the system (in `dir`, a fresh
 * directory removed after), `config(gatewayUrl)` the system's configuration, the ICD-10 fixture loaded before the
 * file's own `prepare`. `gateway` stands for the running stand-in (read it in hooks and tests); `restartGateway()`
 * restarts it.
 */
export function useGatewaySystem<U extends Record<string, UserSpec>, Kf extends KafkaOption>(
  setup: Omit<TestSystemSetup<U, Kf>, 'config' | 'teardown'> & {
    tag: string;
    standin?: Omit<GatewayStandinOptions, 'dir'>;
    config: (gatewayUrl: string) => Partial<Record<keyof Config, string>>;
  },
) {
  let running: GatewayStandin | undefined;
  let dir = '';
  const gateway = new Proxy({} as GatewayStandin, {
    get: (_t, p) => {
      if (!running) throw new Error('the gateway stand-in is not started yet');
      const v = (running as unknown as Record<string | symbol, unknown>)[p];
      return typeof v === 'function' ? v.bind(running) : v;
    },
  });
  const t = useTestSystem<U, Kf>({
    ...setup,
    config: async () => {
      dir = gatewayDir(setup.tag);
      running = await startGatewayStandin({ ...setup.standin, dir });
      return setup.config(running.url);
    },
    prepare: async (ctx) => {
      await importIcd10Fixture(ctx.sys.ctx.mongo);
      await setup.prepare?.(ctx);
    },
    teardown: async () => {
      await running?.close();
      removeGatewayDir(dir);
    },
  });
  /** stop the stand-in and start it again on its port and directory (what it stored stays) */
  const restartGateway = async () => {
    const port = running!.port;
    await running!.close();
    running = await startGatewayStandin({ ...setup.standin, dir, port });
  };
  return { ...t, gateway, restartGateway };
}
