/**
 * One schemathesis run of the fuzzer (scripts/fuzz.ts), read back: its operations, cases and failures, from the
 * NDJSON events it writes (every case, its request, answer and checks).
 */

export interface Failure {
  check: string;
  operation: string;
  title: string;
  count: number;
  example: string;
}

export interface RunResult {
  name: string;
  operations: number;
  cases: number;
  failures: Failure[];
  /** 2xx answers to writes (the refusal check's context) */
  acceptedWrites: number;
  /** 401 answers to requests that carried the fuzz user's token: the session died */
  sessionLost: number;
  /** operations that never answered anything but 404 with the token (no real id reached them) */
  only404: string[];
  /** operations whose every answer with the token was 403 (the role may not) */
  only403: number;
  seconds: number;
  exitCode: number;
}

export const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** One request and its answer, as a line a person can replay. */
function describeInteraction(c: any, it: any): string {
  const req = it.request ?? {};
  const body = c?.body === undefined ? '' : ` body ${clip(JSON.stringify(c.body), 300)}`;
  const res = it.response;
  const text = res?.content?.$base64 ? Buffer.from(res.content.$base64, 'base64').toString('utf8') : '';
  return `${req.method} ${clip(String(req.uri ?? '').replace(/^https?:\/\/[^/]+/, ''), 300)}${body} → ${res?.status_code ?? 'no answer'} ${clip(text, 300)}`;
}

/** Operations, cases and failures of a run, from its NDJSON events (every case, its request, answer and checks). */
export async function parseRun(file: string): Promise<Omit<RunResult, 'name' | 'seconds' | 'exitCode'>> {
  const { createInterface } = await import('node:readline');
  const { createReadStream } = await import('node:fs');
  const operations = new Set<string>();
  const statuses = new Map<string, Map<number, number>>();
  const failures = new Map<string, Failure>();
  let cases = 0;
  let acceptedWrites = 0;
  let sessionLost = 0;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (!line.startsWith('{"ScenarioFinished"')) continue;
    const rec = JSON.parse(line).ScenarioFinished.recorder;
    if (!rec?.label) continue;
    operations.add(rec.label);
    for (const [id, it] of Object.entries<any>(rec.interactions ?? {})) {
      const c = rec.cases?.[id]?.value;
      const res = it.response;
      cases++;
      if (!res) continue;
      // the coverage phase records what it really sent (raw_containers: some cases drop or empty the header);
      // the fuzzing phase always sends the configured header
      const raw = c?.meta?.raw_containers?.header;
      const withToken = raw
        ? String(raw.Authorization ?? '').length > 'Bearer '.length
        : c?.headers?.Authorization !== undefined;
      const sameMethod = it.request?.method === rec.label.split(' ')[0];
      if (withToken && sameMethod) {
        const m = statuses.get(rec.label) ?? new Map<number, number>();
        m.set(res.status_code, (m.get(res.status_code) ?? 0) + 1);
        statuses.set(rec.label, m);
        if (res.status_code === 401 && !rec.label.includes('/authenticate')) sessionLost++;
      }
      if (res.status_code < 300 && !['GET', 'HEAD', 'OPTIONS'].includes(it.request?.method)) acceptedWrites++;
    }
    for (const [id, checks] of Object.entries<any[]>(rec.checks ?? {}))
      for (const check of checks) {
        if (check.status !== 'failure') continue;
        const f = check.failure_info?.failure ?? {};
        const key = `${check.name} ${rec.label} ${f.title ?? ''}`;
        const seen = failures.get(key);
        if (seen) {
          seen.count++;
          continue;
        }
        failures.set(key, {
          check: check.name,
          operation: rec.label,
          title: `${f.code ? `${f.code} ` : ''}${f.title ?? ''}${f.message ? `: ${clip(String(f.message).replace(/\s+/g, ' '), 400)}` : ''}`,
          count: 1,
          example: describeInteraction(rec.cases?.[id]?.value, rec.interactions?.[id] ?? {}),
        });
      }
  }
  const only = (code: number) =>
    [...statuses].filter(([, m]) => m.size === 1 && m.has(code)).map(([op]) => op);
  return {
    operations: operations.size,
    cases,
    failures: [...failures.values()],
    acceptedWrites,
    sessionLost,
    only404: only(404),
    only403: only(403).length,
  };
}
