/**
 * The fault drill's load (scripts/drill.ts): providers submitting requisitions, lab staff moving tests to In
 * Progress and uploading reports, billing staff submitting billing cases, each through the API of whichever server
 * process answers, as a client behind a load balancer would. Every request's outcome is recorded: what the server
 * accepted is what the drill's proofs check, every 5xx is kept with its body.
 */
import { multipart, TEST_PASSWORD } from '@onco/testing';

export interface Answer {
  status: number;
  body: any;
  /** a network error (connection refused: the process is down), or a timeout */
  error?: string;
}

export interface ServerError {
  at: number;
  method: string;
  path: string;
  status: number;
  code: string | null;
  message: string | null;
  dependency: string | null;
}

export interface Submitted {
  requisitionId: string;
  testOrderIds: string[];
  /** when the server answered the submit (or when a retry found it submitted) */
  at: number;
  ms: number;
  late: boolean;
}

export interface Recorder {
  submits: Submitted[];
  /** accepted test status changes: test order id and status */
  statusChanges: Array<{ testOrderId: string; status: string; at: number }>;
  /** accepted billing submits: case id and when */
  billingSubmits: Array<{ caseId: string; at: number }>;
  serverErrors: ServerError[];
  networkErrors: number;
}

export interface LoadOptions {
  servers: () => string[];
  providers: string[];
  /** the lab and billing user (sees every account) */
  staff: string;
  form: Record<string, unknown>;
  target: number;
  /** a provider's pause between two orders (ms, on average; each pause 0.5 to 1.5 times it) */
  thinkMs: number;
  /** go on (past the target) while this says so: the faults are not over yet */
  keepGoing: () => boolean;
  log: (s: string) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const REQUEST_TIMEOUT_MS = 30_000;

export function createRecorder(): Recorder {
  return { submits: [], statusChanges: [], billingSubmits: [], serverErrors: [], networkErrors: 0 };
}

/** One request to a random server process; 5xx and network errors recorded. */
export function client(rec: Recorder, servers: () => string[]) {
  return async (
    auth: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> => {
    const list = servers();
    const base = list[Math.floor(Math.random() * list.length)];
    const raw = body instanceof Buffer;
    try {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: auth,
          ...(body === undefined || raw ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await res.text();
      let json: any = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = { text };
      }
      if (res.status >= 500)
        rec.serverErrors.push({
          at: Date.now(),
          method,
          path: path.split('?')[0].replace(/[0-9a-f]{8}-[0-9a-f-]{27,}/g, '{id}'),
          status: res.status,
          code: json?.code ?? null,
          message: json?.message ?? null,
          dependency: json?.details?.dependency ?? null,
        });
      return { status: res.status, body: json };
    } catch (err) {
      rec.networkErrors += 1;
      return { status: 0, body: null, error: (err as Error).message };
    }
  };
}

/** Call until the answer is not a 5xx or a network error (a person retrying), at most `tries` times. */
async function persist(call: () => Promise<Answer>, tries = 120): Promise<Answer> {
  let a: Answer = { status: 0, body: null };
  for (let i = 0; i < tries; i++) {
    a = await call();
    if (a.status > 0 && a.status < 500) return a;
    await sleep(250 + Math.random() * 250);
  }
  return a;
}

const PORTAL = '/portal/api/v1';
const OMS = '/oms/api/v1';
const BIS = '/bis/api/v1';

/** A report file: the server checks a PDF by its signature (`%PDF-`) and its size. */
const reportPdf = () => Buffer.from('%PDF-1.4\n% fault drill report\n%%EOF\n');

/**
 * Run the load until `target` requisitions are accepted and `keepGoing()` says stop: `providers.length`
 * provider loops (draft, sign, submit, a pause), one lab loop per 10 providers (In Progress, then a report with
 * REPORT_COMPLETE) and as many billing loops (every eighth status change's test: billing review, code, Submit).
 */
export async function runLoad(rec: Recorder, o: LoadOptions): Promise<void> {
  const call = client(rec, o.servers);
  const labQueue: Submitted[] = [];
  const billingQueue: string[] = [];
  let providersDone = 0;
  const pdf = reportPdf();
  const more = () => rec.submits.length < o.target || o.keepGoing();

  const provider = async (auth: string, n: number) => {
    // the providers start spread over one pause, not all at once
    await sleep((n / o.providers.length) * o.thinkMs);
    while (more()) {
      const draft = await persist(() => call(auth, 'POST', `${PORTAL}/testOrderForms`, o.form));
      if (draft.status !== 200) continue;
      const id = draft.body.id as string;
      const signed = await persist(() =>
        call(auth, 'POST', `${PORTAL}/testOrderForms/${id}/sign`, { password: TEST_PASSWORD }),
      );
      if (signed.status !== 200) continue;
      const t = Date.now();
      let answer = await call(auth, 'POST', `${PORTAL}/testOrderForms/submit?createPdf=true`, { id });
      let late = false;
      // not answered 200: a person looks at the order, and submits again while it is still a draft
      for (let i = 0; answer.status !== 200 && i < 200; i++) {
        await sleep(250);
        const now = await call(auth, 'GET', `${PORTAL}/testOrderForms/${id}`);
        if (now.status === 200 && now.body?.status === 'SUBMITTED') {
          answer = { status: 200, body: now.body };
          late = true;
          break;
        }
        if (now.status === 200)
          answer = await call(auth, 'POST', `${PORTAL}/testOrderForms/submit?createPdf=true`, { id });
      }
      if (answer.status !== 200) continue;
      const tests = (answer.body.testOrders ?? []).map((x: { id: string }) => x.id) as string[];
      const s: Submitted = {
        requisitionId: id,
        testOrderIds: tests,
        at: Date.now(),
        ms: Date.now() - t,
        late,
      };
      rec.submits.push(s);
      labQueue.push(s);
      if (rec.submits.length % 100 === 0) o.log(`${rec.submits.length} requisitions accepted`);
      await sleep(o.thinkMs * (0.5 + Math.random()));
    }
    providersDone += 1;
  };

  const lab = async () => {
    const changed = (testOrderId: string, status: string) =>
      rec.statusChanges.push({ testOrderId, status, at: Date.now() });
    while (providersDone < o.providers.length || labQueue.length) {
      const s = labQueue.shift();
      if (!s) {
        await sleep(100);
        continue;
      }
      for (const testOrderId of s.testOrderIds) {
        // the test order is made by the lab's consumer: 404 until then
        const progress = await persist(async () => {
          const a = await call(o.staff, 'POST', `${OMS}/testOrders/updateTestsStatus`, {
            uuids: [testOrderId],
            status: 'IN_PROGRESS',
          });
          return a.status === 404 ? { ...a, status: 503 } : a;
        }, 400);
        if (progress.status !== 200) continue;
        changed(testOrderId, 'IN_PROGRESS');
        const { payload: body, contentType: type } = multipart([
          { name: 'file', filename: 'report.pdf', contentType: 'application/pdf', data: pdf },
        ]);
        const report = await persist(() =>
          call(o.staff, 'POST', `${OMS}/testOrders/${testOrderId}/reports/upload?submit=true`, body, {
            'content-type': type,
          }),
        );
        if (report.status !== 200) continue;
        changed(testOrderId, 'REPORT_COMPLETE');
        if (rec.statusChanges.length % 8 === 0) billingQueue.push(s.requisitionId + ' ' + testOrderId);
      }
    }
  };

  const billing = async () => {
    while (providersDone < o.providers.length || billingQueue.length) {
      const item = billingQueue.shift();
      if (!item) {
        await sleep(200);
        continue;
      }
      const [requisitionId, testOrderId] = item.split(' ');
      const review = await persist(() =>
        call(o.staff, 'PUT', `${PORTAL}/testOrderForms/${requisitionId}/billingReview`, {
          status: 'REVIEW_COMPLETE',
        }),
      );
      if (review.status !== 200) continue;
      // the billing case is made from the events: wait for it, qualified by the review and the report
      const filter = encodeURIComponent(JSON.stringify({ testOrderId }));
      let caseId: string | null = null;
      for (let i = 0; i < 240 && !caseId; i++) {
        const list = await call(o.staff, 'GET', `${BIS}/billingCases?filter=${filter}`);
        const row = list.body?.content?.[0];
        if (row?.reviewStatus === 'REVIEW_COMPLETE' && row?.testStatus === 'REPORT_COMPLETE') caseId = row.id;
        else await sleep(250);
      }
      if (!caseId) continue;
      const code = await persist(() =>
        call(o.staff, 'POST', `${BIS}/billing/${caseId}/billingCode/ACC-DRILL`),
      );
      if (code.status !== 200) continue;
      const sent = await persist(() => call(o.staff, 'POST', `${BIS}/billing/submit/${caseId}`));
      if (sent.status === 200) rec.billingSubmits.push({ caseId, at: Date.now() });
    }
  };

  const labs = Math.max(1, Math.round(o.providers.length / 10));
  await Promise.all([
    ...o.providers.map((auth, n) => provider(auth, n)),
    ...Array.from({ length: labs }, () => lab()),
    ...Array.from({ length: labs }, () => billing()),
  ]);
}
