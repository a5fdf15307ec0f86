/**
 * What the list benchmarks share (scripts/bench-orders-list.ts, scripts/bench-tests-list.ts): the command-line
 * arguments, the closed-loop runner at a fixed concurrency and its figures.
 */

/** `--name value` from the command line, else the fallback. */
export function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

export interface RunFigures {
  p50: number;
  p95: number;
  rps: number;
}

/** p50 and p95 of the samples (ms) and requests per second over the wall time. */
export function stats(samples: number[], wallMs: number): RunFigures {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
  return { p50: at(50), p95: at(95), rps: (samples.length / wallMs) * 1000 };
}

/** `requests` calls of `once`, `concurrency` at a time (each worker starts the next when its call ends). */
export async function run(
  requests: number,
  concurrency: number,
  once: () => Promise<void>,
): Promise<RunFigures> {
  const samples: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next++;
        const t = performance.now();
        await once();
        samples.push(performance.now() - t);
      }
    }),
  );
  return stats(samples, performance.now() - start);
}

export const fmt = (r: RunFigures) =>
  `p50 ${r.p50.toFixed(0)} ms, p95 ${r.p95.toFixed(0)} ms, ${r.rps.toFixed(2)} req/s`;
