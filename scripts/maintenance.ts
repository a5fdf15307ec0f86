/**
 * Maintenance windows from the command line, through the running server's API (so the permission
 * CAN_MANAGE_MAINTENANCE and every validation apply):
 *
 *   npm run maintenance -- list
 *   npm run maintenance -- add --start 2026-12-05T02:00:00Z --end 2026-12-05T04:00:00Z [--display ISO] [--title "..."]
 *   npm run maintenance -- remove <id>
 *
 * Options: --url (default http://127.0.0.1:8080), --user (default the demo administrator "administrator"),
 * --password (default the demo password; in production pass the administrator's own).
 */
import { loadConfig } from '@onco/platform';

const args = process.argv.slice(2);
const opt = (name: string, fallback?: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const iso = (v: string | number) => new Date(v).toISOString();

function usage(message?: string): never {
  if (message) console.error(`[maintenance] ${message}`);
  console.error(
    'usage: npm run maintenance -- list | add --start ISO --end ISO [--display ISO] [--title TEXT] | remove ID\n' +
      '       [--url http://127.0.0.1:8080] [--user LOGIN] [--password PASSWORD]',
  );
  process.exit(2);
}

async function main() {
  const command = args[0];
  if (!['list', 'add', 'remove'].includes(command ?? ''))
    usage(command ? `unknown command "${command}"` : undefined);
  const config = loadConfig();
  const base = opt('url', config.PUBLIC_URL)!.replace(/\/$/, '');
  const user = opt('user', 'administrator')!;
  const password = opt('password', config.DEMO_PASSWORD)!;

  const auth = await fetch(`${base}/uam/api/v1/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: b64(user), password: b64(password) }),
  }).catch((err: Error) =>
    usage(`cannot reach ${base} (${err.message}); is the server running (npm start)?`),
  );
  if (!auth.ok) usage(`sign-in as ${user} failed (${auth.status}): ${(await auth.json()).message ?? ''}`);
  const headers = {
    authorization: `Bearer ${(await auth.json()).token}`,
    'content-type': 'application/json',
  };
  const api = `${base}/portal/api/v1/maintenance`;

  if (command === 'list') {
    const res = await fetch(api, { headers });
    const body = await res.json();
    const rows = Array.isArray(body) ? body : (body.content ?? []);
    if (!rows.length) console.log('[maintenance] no current or upcoming windows');
    for (const w of rows) {
      console.log(
        `${w.id}  ${iso(w.startTime)} -> ${iso(w.endTime)}  (banner from ${iso(w.displayTime)})  ${w.title ?? ''}`,
      );
    }
    return;
  }
  if (command === 'add') {
    const start = opt('start');
    const end = opt('end');
    if (!start || !end) usage('add needs --start and --end (ISO 8601, e.g. 2026-12-05T02:00:00Z)');
    const res = await fetch(api, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        startTime: start,
        endTime: end,
        ...(opt('display') ? { displayTime: opt('display') } : {}),
        title: opt('title', 'Scheduled maintenance'),
      }),
    });
    const body = await res.json();
    if (!res.ok) usage(`not scheduled (${res.status}): ${body.message}`);
    console.log(`[maintenance] scheduled ${body.id}: ${iso(body.startTime)} -> ${iso(body.endTime)}`);
    return;
  }
  const id = args[1];
  if (!id || id.startsWith('--')) usage('remove needs the window id (see list)');
  const res = await fetch(`${api}/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    headers: { authorization: headers.authorization },
  });
  if (!res.ok) usage(`not removed (${res.status}): ${(await res.json()).message}`);
  console.log(`[maintenance] removed ${id}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
