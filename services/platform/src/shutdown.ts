import type { Logger } from 'pino';

/** One step of a shutdown: what it is (for the log) and what it does. */
export interface ShutdownStep {
  what: string;
  run: () => Promise<unknown>;
  /** the most this step may take (default: whatever is left of the budget, less what later steps reserve) */
  maxMs?: number;
  /** time kept back for this step even when earlier steps overrun (default 0) */
  reserveMs?: number;
}

export interface ShutdownReport {
  tookMs: number;
  /** the steps given up on at their deadline (they go on in the background until the process exits) */
  abandoned: string[];
  /** the steps that failed, with their error */
  failed: { what: string; error: string }[];
}

/**
 * Run shutdown steps in order within one budget (SHUTDOWN_TIMEOUT_MS): each step gets what is left, less what the
 * later steps reserve, or its own maximum; a step still running at its deadline is given up on (logged once, a
 * WARN naming it) and the next one starts. With a dependency down (Kafka, Redis) its client retries for longer
 * than an orchestrator waits (30 s); this keeps the whole shutdown inside the budget, so the process exits on
 * its own, having finished what it could (in-flight requests first).
 */
export async function shutdownWithin(
  budgetMs: number,
  steps: ShutdownStep[],
  logger?: Pick<Logger, 'warn' | 'info'>,
): Promise<ShutdownReport> {
  const started = Date.now();
  const deadline = started + budgetMs;
  const abandoned: string[] = [];
  const failed: ShutdownReport['failed'] = [];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    const reservedLater = steps.slice(i + 1).reduce((sum, s) => sum + (s.reserveMs ?? 0), 0);
    const left = Math.max(0, deadline - Date.now() - reservedLater);
    const allowed = Math.max(step.reserveMs ?? 0, Math.min(left, step.maxMs ?? Infinity));
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      step.run().then(
        () => 'done' as const,
        (err: unknown) => {
          failed.push({ what: step.what, error: err instanceof Error ? err.message : String(err) });
          return 'failed' as const;
        },
      ),
      new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), allowed))),
    ]);
    clearTimeout(timer);
    if (outcome === 'late') {
      abandoned.push(step.what);
      logger?.warn({ step: step.what, allowedMs: allowed }, 'shutdown: step given up on at its deadline');
    }
  }
  const report = { tookMs: Date.now() - started, abandoned, failed };
  logger?.info(report, 'shutdown finished');
  return report;
}
