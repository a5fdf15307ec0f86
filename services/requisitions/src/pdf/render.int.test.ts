import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CHROMIUM_PATH } from '@onco/platform';
import { blankFormHtml } from './blank-form';
import { createPdfRenderer, type PdfRenderer } from './render';
import { pdfInfo, pdfText } from '../../test/pdf';

/** Whether process `p` still exists (signal 0 checks without signalling). */
const alive = (p: number) => {
  try {
    process.kill(p, 0);
    return true;
  } catch {
    return false;
  }
};

const CHROMIUM = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;

describe('PDF renderer (real chromium)', () => {
  let renderer: PdfRenderer;
  const timings: Record<string, number> = {};

  beforeAll(() => {
    renderer = createPdfRenderer({ executablePath: CHROMIUM, idleCloseMs: 0 });
  });
  afterAll(async () => {
    await renderer.close();
    console.info(`[render timings] ${JSON.stringify(timings)}`);
  });

  it('renders the blank form to a two-page Letter PDF with its title and version (cold, then warm)', async () => {
    let t = Date.now();
    const pdf = await renderer.render(blankFormHtml());
    timings.coldMs = Date.now() - t;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await pdfText(pdf);
    expect(text).toContain('Test Requisition Form');
    expect(text).toContain('102-210-C');
    expect(text).toContain('CANCER IS PERSONAL');
    expect(text).toContain('TUMOR SPECIMEN');
    expect(text).toContain('CONSENT & PROVIDER SIGNATURE');
    expect(await pdfInfo(pdf)).toEqual({ pages: 2, pageSize: '612 x 792 pts (letter)' });

    t = Date.now();
    const again = await renderer.render(blankFormHtml());
    timings.warmMs = Date.now() - t;
    expect(again.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(renderer.launches).toBe(1);
  });

  it('never reaches the network, even when the HTML asks for it', async () => {
    const hits: string[] = [];
    const server = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('x');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const html = `<!doctype html><html><head><link rel="stylesheet" href="http://127.0.0.1:${port}/a.css"></head>
        <body><p>offline</p><img src="http://127.0.0.1:${port}/b.png"><iframe src="http://127.0.0.1:${port}/c"></iframe></body></html>`;
      const pdf = await renderer.render(html);
      expect(await pdfText(pdf)).toContain('offline');
      expect(hits).toEqual([]);
    } finally {
      server.close();
    }
  });

  it('relaunches chromium after it crashes, and keeps no pages open', async () => {
    const before = await renderer.status();
    const pid = before.pid;
    expect(pid).toBeTypeOf('number');
    expect(existsSync(before.profileDir!)).toBe(true);
    process.kill(pid!, 'SIGKILL');
    // the browser process is gone (the renderer notices the disconnect asynchronously; the next render must
    // work either way)
    await vi.waitFor(() => expect(alive(pid!)).toBe(false), { timeout: 10_000, interval: 50 });
    const t = Date.now();
    const pdf = await renderer.render('<!doctype html><p>after the crash</p>');
    timings.afterCrashMs = Date.now() - t;
    expect(await pdfText(pdf)).toContain('after the crash');
    expect(renderer.launches).toBe(2);
    const after = await renderer.status();
    expect(after.pid).not.toBe(pid);
    // the crashed browser's profile directory is gone, the new one exists
    for (let i = 0; i < 50 && existsSync(before.profileDir!); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(before.profileDir!)).toBe(false);
    expect(existsSync(after.profileDir!)).toBe(true);
    expect(after.openPages).toBe(before.openPages);
  });

  it('leaves no orphaned chromium when its process is killed outright', async () => {
    const renderModule = fileURLToPath(new URL('./render.ts', import.meta.url));
    const script = `
      const { createPdfRenderer } = await import(${JSON.stringify(renderModule)});
      const r = createPdfRenderer({ executablePath: ${JSON.stringify(CHROMIUM)}, idleCloseMs: 0 });
      await r.render('<p>x</p>');
      const st = await r.status();
      console.log('PID ' + st.pid + ' DIR ' + st.profileDir + ' END');
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const { pid, dir } = await new Promise<{ pid: number; dir: string }>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += String(d);
        const m = /PID (\d+) DIR (\S+) END/.exec(out);
        if (m) resolve({ pid: Number(m[1]), dir: m[2] });
      });
      child.on('exit', () => reject(new Error(`child exited early: ${out}`)));
    });
    expect(alive(pid)).toBe(true);
    child.kill('SIGKILL');
    const deadline = Date.now() + 10_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const survived = alive(pid);
    if (survived) process.kill(pid, 'SIGKILL');
    // the killed process could not remove its profile directory: tidy up after it
    await rm(dir, { recursive: true, force: true });
    expect(survived).toBe(false);
  });

  it('runs no script of the HTML', async () => {
    const pdf = await renderer.render(
      '<!doctype html><p>static</p><script>for(;;){}</script><script>document.write("SCRIPT RAN")</script>',
    );
    const text = await pdfText(pdf);
    expect(text).toContain('static');
    expect(text).not.toContain('SCRIPT RAN');
  });

  it('closes the page when a render fails, keeps the browser usable, and refuses renders after close()', async () => {
    const r = createPdfRenderer({ executablePath: CHROMIUM, timeoutMs: 1, idleCloseMs: 0 });
    try {
      // a render that cannot finish within its 1 ms: ~4 MB of HTML takes chromium hundreds of ms to load (the
      // blank form alone once loaded within the millisecond on the headless shell, and the render succeeded)
      const slow = `<!doctype html>${'<p>a paragraph of the form</p>'.repeat(150_000)}`;
      await expect(r.render(slow)).rejects.toThrow();
      const { openPages, pid } = await r.status();
      expect(pid).toBeTypeOf('number');
      // only chromium's own initial tab is left: the failed render's page was closed
      expect(openPages).toBe(1);
    } finally {
      await r.close();
    }
    await expect(r.render('<p>x</p>')).rejects.toThrow(/closed/);
    expect(await renderer.render('<p>still fine</p>')).toBeInstanceOf(Buffer);
  });
});
