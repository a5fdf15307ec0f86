/**
 * The fuzzer's report (scripts/fuzz.ts): what fails a role's run, its summary line, and the Markdown report of a
 * whole run (docs/fuzz.md).
 */
import type { RefusalFinding } from './fuzz-refusals';
import { clip, type RunResult } from './fuzz-run';

export type RoleResult = RunResult & { role: string; versionsChanged: string[]; refusals: RefusalFinding[] };

/** What fails a role's run: a check's failures, a refused write that wrote, a lost session, records changed
 * though no write was accepted. */
export const failuresOf = (r: RoleResult) =>
  r.failures.reduce((n, f) => n + f.count, 0) +
  r.refusals.length +
  (r.sessionLost ? 1 : 0) +
  (r.versionsChanged.length && !r.acceptedWrites ? 1 : 0);

export const summaryLine = (r: RoleResult) =>
  `${r.role}: ${r.operations} operations, ${r.cases} cases, ${failuresOf(r)} failures (${r.failures.length} distinct check failures, ${r.refusals.length} refused writes that wrote, ${r.sessionLost} answers 401 to the token), ${r.seconds.toFixed(0)} s`;

export function renderReport(
  results: RoleResult[],
  seconds: number,
  writesChecked: number,
  run: {
    date: string;
    short: boolean;
    version: string;
    seed: number;
    maxExamples: number;
    coverageRoles: string[];
  },
): string {
  const total = (f: (r: RoleResult) => number) => results.reduce((n, r) => n + f(r), 0);
  const byCheck = (r: RoleResult, check: string) =>
    r.failures.filter((f) => f.check === check).reduce((n, f) => n + f.count, 0);
  const lines = [
    '# API fuzzing report',
    '',
    `${run.date}. \`npm run fuzz${run.short ? ' -- --short' : ''}\` (scripts/fuzz.ts): schemathesis ${run.version}, seed ${run.seed}, ` +
      `${run.short ? 'short run' : 'full run'}: the fuzzing phase with at most ${run.maxExamples} examples per operation for every role` +
      `${run.coverageRoles.length ? `, the coverage phase too for ${run.coverageRoles.join(', ')} and the throwaway user` : ''}, positive and negative data; every operation of \`/docs/json\` once per ` +
      `role, as that role's own fuzz user, with that role's own seeded records' ids. ${seconds.toFixed(0)} s on this 2-core machine.`,
    '',
    `**${total((r) => r.cases).toLocaleString('en-US')} cases, ${total(failuresOf)} failures** ` +
      `(${total((r) => byCheck(r, 'not_a_server_error'))} server errors, ${total((r) => byCheck(r, 'response_schema_conformance'))} schema mismatches, ` +
      `${total((r) => r.refusals.length)} refused writes that changed something, ${total((r) => r.sessionLost)} answers 401 to a live token); ` +
      `${writesChecked.toLocaleString('en-US')} write requests watched for the refusal check.`,
    '',
    '| role | operations | cases | 5xx | schema | refused writes that wrote | 401 to the token | accepted writes | only 403 | only 404 | seconds |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.role} | ${r.operations} | ${r.cases.toLocaleString('en-US')} | ${byCheck(r, 'not_a_server_error')} | ${byCheck(r, 'response_schema_conformance')} | ${r.refusals.length} | ${r.sessionLost} | ${r.acceptedWrites} | ${r.only403} | ${r.only404.length} | ${r.seconds.toFixed(0)} |`,
    ),
    '',
  ];
  const failing = results.filter((r) => failuresOf(r));
  if (failing.length) {
    lines.push('## Failures (the first example of each)', '');
    for (const r of failing) {
      lines.push(`### ${r.role}`, '');
      for (const f of r.failures)
        lines.push(`- **${f.check}** ${f.operation} (${f.count}×): ${f.title}`, `  - \`${f.example}\``);
      for (const x of r.refusals)
        lines.push(
          `- **refused write changed something**: ${x.method} ${clip(x.url, 200)} → ${x.status}: ${x.writes.join('; ')}`,
        );
      if (r.sessionLost)
        lines.push(`- **session lost**: ${r.sessionLost} answers 401 to requests with the fuzz user's token`);
      if (r.versionsChanged.length && !r.acceptedWrites)
        lines.push(`- **seeded records changed with no accepted write**: ${r.versionsChanged.join('; ')}`);
      lines.push('');
    }
  }
  const only404 = [...new Set(results.flatMap((r) => r.only404))].sort();
  lines.push(
    '## How to read it',
    '',
    "- **cases**: requests sent (schemathesis' interactions), including the coverage phase's requests without the token and with methods a path does not have.",
    "- **5xx**: `not_a_server_error`. **schema**: `response_schema_conformance` (the answer matches the status code's documented schema).",
    "- **refused writes that wrote**: a POST, PUT, PATCH or DELETE answered 4xx whose handling changed a document in the store (scripts/fuzz-refusals.ts: each store command attributed to its request, changes read from the command's reply; a wrong password counted toward the lockout and the audit trail are allowed). Besides, the seeded records' versions are compared before and after each role's run: a change with no accepted write fails.",
    "- **401 to the token**: answers 401 to requests carrying the fuzz user's live token: the session died (a lockout). Passwords: a signature's password and the own-password change's old password are always the user's real one (scripts/fuzz_hooks.py, every phase); what ends the caller's own session (`PUT /uam/api/v1/users/{id}/credentials`, the own-password change; `POST /uam/api/v1/logout`, the sign-out) is left out of the role runs and fuzzed apart, each by a throwaway user of its own, whose session the first accepted call ends.",
    '- **only 403**: operations the role may not call (every answer 403). **only 404**: operations whose every answer was 404.',
    '',
    `Operations whose every answer with the token was 404 in some role (a DELETE of a record an earlier case of the same run removed shows here too; no seeded record reaches the others): ${only404.length ? only404.join(', ') : 'none'}.`,
    '',
  );
  return lines.join('\n');
}
