import { compile as compileTrust } from '@fastify/proxy-addr';
import { z } from 'zod';

/**
 * The one place that reads process.env. Everything else receives a typed Config.
 * Defaults are for local use (the processes started by `npm run infra:up`).
 * The table of variables is documented in docs/configuration.md.
 */
/**
 * The local store that `scripts/infra.sh` runs: DocumentDB's MongoDB wire gateway, which authenticates every
 * connection (SCRAM-SHA-256 against a PostgreSQL role it creates; local use only). Docker users and production
 * set MONGO_URL instead.
 */
export const LOCAL_MONGO_URL = 'mongodb://oncotrf:oncotrf-local@127.0.0.1:27017/oncotrf?authSource=admin';

/** The same server and options as `url`, another database (tests and benchmarks get a database each). */
export function mongoUrlWithDb(url: string, db: string): string {
  return url.replace(/\/[^/?]*(\?|$)/, `/${db}$1`);
}

/**
 * The billing gateway token of development, demos and tests (BILLING_GATEWAY_TOKEN's default): the billing gateway
 * stand-in takes it when it is given no other, so a local setup needs no token.
 */
export const DEV_BILLING_GATEWAY_TOKEN = 'dev-only-billing-gateway-token';

/** The browser for PDFs and the browser tests: Debian's chromium-headless-shell (scripts/infra.sh installs it). */
export const DEFAULT_CHROMIUM_PATH = '/usr/lib/chromium/chromium-headless-shell';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const csv = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  /** HTTP port of the single process (or of one area when SERVICES names one). */
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  /** Which API areas this process mounts: "all" or a comma list of uam,portal,oms,bis,cns,dxs. */
  SERVICES: z.string().default('all'),
  /** Run the BullMQ workers, the outbox relay and the Kafka consumers in this process. */
  WORKERS: bool.default(true),
  /**
   * The most a shutdown (SIGTERM, SIGINT) takes: in-flight requests and jobs finish within it, a step still
   * running at its deadline (a client retrying a dependency that is down) is given up on. Below an
   * orchestrator's usual 30 s grace period, with room to spare.
   */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(120_000).default(8_000),
  /**
   * Whose Kafka consumers and BullMQ workers run here (when WORKERS): "all" or a comma list of the domains
   * reference,requisitions,lab,billing,messages. A deployment can give a domain's workers processes of their own; a
   * test starts only the ones it needs. The outbox relay runs in every process with WORKERS.
   */
  WORKER_MODULES: z.string().default('all'),
  /** Serve the built console (console/dist) from this process. */
  SERVE_CONSOLE: bool.default(true),
  MONGO_URL: z.string().url().default(LOCAL_MONGO_URL),
  /**
   * The login that builds the large lists' index-ordered indexes on the local store (DocumentDB; store.sh's
   * ordered-index role). Default: MONGO_URL's login with "_ordered" added. Not used with MongoDB.
   */
  MONGO_ORDERED_URL: z.string().url().optional(),
  KAFKA_BROKERS: csv.default(['127.0.0.1:9092']),
  KAFKA_CLIENT_ID: z.string().default('oncotrf'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  /** Prefix for BullMQ keys, so tests and several deployments can share a Redis. */
  QUEUE_PREFIX: z.string().default('oncotrf'),
  /** Prefix for Kafka topic names (e.g. per environment). */
  TOPIC_PREFIX: z.string().default(''),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Signing secret for bearer tokens; must be set (>= 32 chars) in production. */
  TOKEN_SECRET: z.string().min(32).default('dev-only-token-secret-change-me-0123456789'),
  TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(8 * 3600),
  /** Failed sign-ins in a row before the account becomes LOCKED_OUT. */
  LOCKOUT_THRESHOLD: z.coerce.number().int().positive().default(5),
  PASSWORD_RESET_TTL_MINUTES: z.coerce.number().int().positive().default(60),
  /** Addresses at this domain must ask IT for a reset (spec 3 section 5). */
  COMPANY_EMAIL_DOMAIN: z.string().default('oncotrf.example.com'),
  /** Public base URL used in e-mailed links. */
  PUBLIC_URL: z.string().url().default('http://127.0.0.1:8080'),
  /** smtp://user:pass@host:port, or "local" for the development mailbox under .data/mailbox. */
  MAIL_TRANSPORT: z.string().default('local'),
  MAIL_FROM: z.string().default('Client Services <no-reply@oncotrf.example.com>'),
  MAILBOX_DIR: z.string().default('.data/mailbox'),
  /** Where attachment binaries go when GridFS is not available: a checksummed file store. */
  FILE_STORE_DIR: z.string().default('.data/files'),
  /** "gridfs" or "files" (default files: the checksummed file store; GridFS is not exercised by the tests). */
  BLOB_STORE: z.enum(['gridfs', 'files']).default('files'),
  /** Debian's chromium-headless-shell, the headless-only build: about half the full browser's CPU for the same
   * pages and PDFs. The binary itself, not /usr/bin's wrapper script (which does not exec), so a kill reaches it. */
  CHROMIUM_PATH: z.string().default(DEFAULT_CHROMIUM_PATH),
  /** Demo mode seeds demo data and demo logins when the database is empty. Never in production. */
  DEMO_MODE: bool.default(true),
  DEMO_PASSWORD: z.string().default('Welcome2Onco!'),
  /** Account excluded from the one-click subsequent order (spec 1 section 4). */
  SUBSEQUENT_ORDER_EXCLUDED_ACCOUNT: z.string().default(''),
  SUBSEQUENT_ORDER_TEST_TYPE: z.enum(['NEXT_DX', 'NEXT_PERSONAL_DX']).default('NEXT_PERSONAL_DX'),
  SUBSEQUENT_ORDER_ORDER_TYPE: z.enum(['INITIAL_ORDER', 'SUBSEQUENT_ORDER']).default('INITIAL_ORDER'),
  /**
   * The one account whose tumor samples need a diagnosis and a completed clinical review before they may be set
   * to PROCEED (spec 2 section 4, "one specific account"); empty: no account has that rule.
   */
  SAMPLE_REVIEW_ACCOUNT: z.string().default(''),
  /**
   * The account id whose orders have financial assistance: its attachment kind and the outcome billing staff
   * record (spec 1 section 5, "one specific account"); empty: no account has it.
   */
  FINANCIAL_ASSISTANCE_ACCOUNT: z.string().default(''),
  /** Base URL of the NPI registry (version 2.1 query contract); "local" uses the built-in stand-in. */
  NPI_REGISTRY_URL: z.string().default('local'),
  /**
   * Base URL of the external billing system's claims API (docs/billing-gateway.md); the default is the billing
   * gateway stand-in (`npx tsx services/billing/src/submission/gateway-main.ts --port 8090`).
   */
  BILLING_GATEWAY_URL: z.string().url().default('http://127.0.0.1:8090'),
  /** Attempts per billing submission (the first send included) before the case becomes RETRY_FAILED. */
  BILLING_SUBMIT_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(6),
  /** First retry delay of a billing submission in ms; doubles on each attempt (30 s: ~15 minutes in all). */
  BILLING_SUBMIT_BACKOFF_MS: z.coerce.number().int().min(1).default(30_000),
  /**
   * How many claims one worker process sends at once (its HTTP connections to the billing system; the
   * billing-submit worker runs a quarter more jobs, which write to the store while these are out): set it to what
   * the billing system accepts from one client.
   */
  BILLING_SUBMIT_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  /**
   * Sign-in, password-reset requests and reset completions allowed per client address and minute, per server
   * process (0: no limit). Above it the answer is 429 with when to try again. docs/decisions.md "Rate limits".
   */
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(60),
  /**
   * Which peers' X-Forwarded-For / -Proto / -Host the server believes (Fastify's trustProxy): the client address
   * the sign-in rate limit counts and the logs show comes from there. `loopback` (default): a proxy on the same
   * host; `false`: none (the socket's address); `true`: any (only behind a proxy that overwrites the header);
   * or a comma list of addresses, subnets (10.0.0.0/8) and the names loopback, linklocal, uniquelocal. No hop
   * count: it cannot check who the nearest peer is (Fastify itself believes no one for one). docs/decisions.md
   * "Rate limits".
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .default('loopback')
    .superRefine((v, c) => {
      if (v === 'true' || v === 'false') return;
      if (/^\d+$/.test(v)) {
        c.addIssue({
          code: 'custom',
          message: "a hop count is not supported: name the proxy's address or subnet",
        });
        return;
      }
      // the same check Fastify makes of the list when it starts (proxy-addr's compile), reported here by name
      try {
        compileTrust(v.split(',').map((s) => s.trim()));
      } catch (err) {
        c.addIssue({
          code: 'custom',
          message: `${(err as Error).message} (an address, a subnet, or loopback / linklocal / uniquelocal)`,
        });
      }
    })
    .transform((v): boolean | string => (v === 'true' ? true : v === 'false' ? false : v)),
  /** Password-reset e-mails one address may be sent per hour, per server process (0: no limit). */
  PASSWORD_RESET_PER_EMAIL_PER_HOUR: z.coerce.number().int().min(0).default(5),
  /**
   * How long a worker's lock on a BullMQ job lasts without renewal (renewed every half), and how often workers
   * look for stalled jobs: a job whose worker process died is taken by another within about twice this. BullMQ's
   * default; the kill tests lower it.
   */
  QUEUE_LOCK_MS: z.coerce.number().int().min(1000).default(30_000),
  /** How long the submission worker waits for the billing system's answer before it counts as a timeout. */
  BILLING_GATEWAY_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  /**
   * How often a worker process checks that every case being submitted has its billing-submit job (a job lost
   * with Redis's data is added again under its deterministic id; the claim's idempotency key keeps it one claim).
   */
  BILLING_REQUEUE_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
  /**
   * The bearer token the platform shows the billing system when it reads its status feed (`GET /feed`,
   * docs/billing-gateway.md "The status feed"). The default is a development value the stand-in also takes by
   * default; set the billing system's own token wherever BILLING_GATEWAY_URL is the real one.
   */
  BILLING_GATEWAY_TOKEN: z.string().min(16).default(DEV_BILLING_GATEWAY_TOKEN),
  /**
   * Whether the `billing-documents` worker uploads the documents behind each claim the billing system took (the
   * test's current report and the requisition's current TRF) and records DOC_UPLOAD_SUCCEEDED, _PARTIAL or _FAILED
   * (docs/billing-gateway.md "The claim's documents"). Off where the billing system gets them another way.
   */
  BILLING_DOCUMENTS: bool.default(true),
  /**
   * How often the `billing-status-feed` job polls the billing system's status feed for later statuses of claims
   * (paid, denied, corrected, on hold, duplicate): one run across all worker processes; 0: never.
   */
  BILLING_FEED_POLL_MS: z.coerce
    .number()
    .int()
    .refine((n) => n === 0 || n >= 100, 'must be 0 (off) or at least 100')
    .default(60_000),
  /**
   * How often the `report-upload-sweep` job removes report uploads that expired without being submitted, with
   * their files (one run across all worker processes; 0: only after each upload). docs/decisions.md "Reports".
   */
  REPORT_UPLOAD_SWEEP_EVERY_MS: z.coerce
    .number()
    .int()
    .refine((n) => n === 0 || n >= 100, 'must be 0 (off) or at least 100')
    .default(600_000),
  /**
   * How long a large list's total and facet counts are served before they are counted again (0: every request
   * counts). The page's rows are always read fresh. docs/decisions.md "List totals and facet counts".
   */
  LIST_COUNTS_TTL_MS: z.coerce.number().int().min(0).default(10_000),
  /** A list is "large" (its counts kept for LIST_COUNTS_TTL_MS) from this many matching rows. */
  LIST_COUNTS_MIN_ROWS: z.coerce.number().int().min(1).default(10_000),
  /**
   * Whether kept counts are shared by every server process through the store (collection `list_counts`): a
   * restarted or added process then answers a list in use without counting it again.
   */
  LIST_COUNTS_SHARED: bool.default(true),
  /**
   * How long audit entries stay in the database (days; 0: for ever). Older ones are moved, oldest first, to an
   * archive file in the file store by the audit chainer's archive pass (docs/audit.md "Retention"). Default six
   * years (HIPAA's documentation retention).
   */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(0).default(2190),
  /** How often the archive pass runs in a process with the audit chainer (ms; 0: never). */
  AUDIT_ARCHIVE_EVERY_MS: z.coerce.number().int().min(0).default(3_600_000),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/** Parse and validate the environment once; throws a ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const input: Record<string, string> = {};
  for (const key of Object.keys(configSchema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') input[key] = v;
  }
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (config.NODE_ENV === 'production') {
    if (config.TOKEN_SECRET.startsWith('dev-only')) {
      throw new ConfigError(
        'Invalid configuration:\n  TOKEN_SECRET: must be set to a secret of at least 32 characters in production',
      );
    }
    if (config.DEMO_MODE) {
      throw new ConfigError(
        'Invalid configuration:\n  DEMO_MODE: demo logins are never allowed in production; set DEMO_MODE=false',
      );
    }
  }
  return config;
}
