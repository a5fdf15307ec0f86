/**
 * Benchmark: report upload throughput.
 *  - API: a 50 MB PDF uploaded through the real HTTP API (POST /oms/api/v1/testOrders/{id}/reports/upload,
 *    multipart, over a socket on 127.0.0.1): auth, scope and status check, multipart parsing, the PDF signature
 *    check, the blob store's checksummed temporary file, fsync and rename, the pending-upload record.
 *  - Baseline: the same bytes streamed straight into the same blob store (`blobs.put`, which also hashes,
 *    fsyncs and renames), no HTTP.
 *  - A second baseline (2026-11-26): the same bytes sent by the same client thread over a plain TCP connection
 *    on 127.0.0.1 and streamed from the socket into the same blob store (no HTTP, no multipart, no checks): the
 *    cost of receiving an upload at all, which the first baseline does not pay. Printed beside, not the target.
 * Prints the median MB/s of each over `--runs` alternating runs, and the ratio (target: API >= 0.8x baseline).
 * Client and server share this process and the machine's cores, as they would share a laptop.
 *
 *   npm run bench:report -- [--runs 5] [--mb 50]
 *
 * Uses its own database (oncotrf_bench_report_<run>) and file store (.data/bench-report-<run>, removed at the
 * end); needs `npm run infra:up`. Not a test.
 */
import { randomBytes } from 'node:crypto';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import pino from 'pino';
import { LOCAL_MONGO_URL, loadConfig, mongoUrlWithDb } from '@onco/platform';
import { labModels } from '@onco/lab';
import { buildSystem } from '@onco/server';
import { createUser, login } from '@onco/testing';
import { arg, runBench } from './bench-support';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const CHUNK = 64 * 1024;
const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}x`;

/** the bytes as a stream of 64 KB slices (no copy), as a socket or file would deliver them */
function slices(buf: Buffer): Readable {
  let at = 0;
  return new Readable({
    read() {
      if (at >= buf.length) return this.push(null);
      this.push(buf.subarray(at, at + CHUNK));
      at += CHUNK;
    },
  });
}

/** The HTTP client (plain JS for the worker): on each message, one upload of head + pdf + tail in 64 KB slices. */
const CLIENT_JS = `
const http = require('node:http');
const { parentPort, workerData: w } = require('node:worker_threads');
const pdf = Buffer.from(w.pdf.buffer, w.pdf.byteOffset, w.pdf.byteLength);
const head = Buffer.from(w.head), tail = Buffer.from(w.tail);
const net = require('node:net');
parentPort.on('message', (mode) => {
  const t0 = process.hrtime.bigint();
  if (mode === 'raw') {
    // the file's bytes alone over a plain connection; the server answers one byte once they are stored
    const sock = net.connect(w.rawPort, '127.0.0.1', () => {
      let at = 0;
      const next = () => {
        while (at < pdf.length) {
          const ok = sock.write(pdf.subarray(at, at + ${CHUNK}));
          at += ${CHUNK};
          if (!ok) return sock.once('drain', next);
        }
        sock.end();
      };
      next();
    });
    sock.once('data', () => {
      parentPort.postMessage({ status: 200, body: '', secs: Number(process.hrtime.bigint() - t0) / 1e9 });
      sock.destroy();
    });
    sock.on('error', (e) => parentPort.postMessage({ status: 0, body: String(e), secs: 1 }));
    return;
  }
  const req = http.request({
    host: '127.0.0.1', port: w.port, method: 'POST', path: w.path,
    headers: {
      authorization: w.auth,
      'content-type': 'multipart/form-data; boundary=' + w.boundary,
      'content-length': String(head.length + pdf.length + tail.length),
    },
  }, (r) => {
    let body = '';
    r.setEncoding('utf8');
    r.on('data', (c) => (body += c));
    r.on('end', () => parentPort.postMessage({ status: r.statusCode, body, secs: Number(process.hrtime.bigint() - t0) / 1e9 }));
  });
  req.on('error', (e) => parentPort.postMessage({ status: 0, body: String(e), secs: 1 }));
  let at = 0;
  req.write(head);
  const next = () => {
    while (at < pdf.length) {
      const ok = req.write(pdf.subarray(at, at + ${CHUNK}));
      at += ${CHUNK};
      if (!ok) return req.once('drain', next);
    }
    req.end(tail);
  };
  next();
});
`;

async function main() {
  const runs = Number(arg('runs', '5'));
  const size = Math.round(Number(arg('mb', '50')) * 1000 * 1000);
  const run = randomBytes(3).toString('hex');
  const dir = `.data/bench-report-${run}`;
  const config = loadConfig({
    ...process.env,
    MONGO_URL: mongoUrlWithDb(process.env.MONGO_URL ?? LOCAL_MONGO_URL, `oncotrf_bench_report_${run}`),
    QUEUE_PREFIX: `bench_${run}`,
    TOPIC_PREFIX: `bench_${run}.`,
    FILE_STORE_DIR: dir,
    WORKERS: 'false',
    SERVE_CONSOLE: 'false',
    DEMO_MODE: 'false',
  });
  const system = await buildSystem(config, { logger: pino({ level: 'warn' }) });
  await system.app.ready();
  try {
    const models = labModels(system.ctx.mongo);
    const admin = await createUser(system, 'ROLE_ADMINISTRATOR');
    const auth = (await login(system, admin.loginId)).authorization;
    const testId = `bench-${run}`;
    await models.TestOrder.create({
      _id: testId,
      testType: 'NEXT_DX',
      orderType: 'INITIAL_ORDER',
      status: 'IN_PROGRESS',
      testOrderForm: { id: `tof-${run}`, account: { id: 'acc-bench', name: 'Bench Oncology' } },
    });
    await system.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = system.app.server.address() as AddressInfo;

    // a PDF-looking file: the signature, then incompressible bytes
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size - 9)]);
    const boundary = `----bench${run}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="isAmendedReport"\r\n\r\nfalse\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.pdf"\r\n` +
        `Content-Type: application/pdf\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);

    // the second baseline's receiver: a plain TCP server streaming each connection into the blob store
    const raw = createNetServer({ allowHalfOpen: true }, (sock) => {
      system.ctx.blobs
        .put(sock)
        .then((stored) => {
          if (stored.size !== size) throw new Error('short raw write');
          sock.end('k');
        })
        .catch((err) => {
          console.error(err);
          sock.destroy();
        });
    });
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    const rawPort = (raw.address() as AddressInfo).port;

    // The client runs in a worker thread (its own event loop, on the other core), as a browser would be
    // another process: the figure is the server's throughput, not the server's and the client's on one loop.
    const client = new Worker(CLIENT_JS, {
      eval: true,
      workerData: {
        port,
        auth,
        boundary,
        path: `/oms/api/v1/testOrders/${testId}/reports/upload`,
        rawPort,
        head,
        pdf,
        tail,
      },
    });
    const replies: Array<(r: { status: number; body: string; secs: number }) => void> = [];
    client.on('message', (r) => replies.shift()?.(r));
    client.on('error', (err) => {
      console.error(err);
      process.exit(1);
    });

    async function viaClient(mode: 'api' | 'raw'): Promise<number> {
      const res = await new Promise<{ status: number; body: string; secs: number }>((resolve) => {
        replies.push(resolve);
        client.postMessage(mode);
      });
      if (res.status !== 200) throw new Error(`${mode} upload failed: ${res.status} ${res.body}`);
      return size / 1e6 / res.secs;
    }
    const viaApi = () => viaClient('api');

    async function bare(): Promise<number> {
      const t0 = process.hrtime.bigint();
      const stored = await system.ctx.blobs.put(slices(pdf));
      const secs = Number(process.hrtime.bigint() - t0) / 1e9;
      if (stored.size !== size) throw new Error('short write');
      return size / 1e6 / secs;
    }

    // one warm-up of each (JIT, first directory creation, connection set-up), not counted
    await viaApi();
    await bare();
    await viaClient('raw');
    const api: number[] = [];
    const base: number[] = [];
    const sock: number[] = [];
    for (let i = 0; i < runs; i++) {
      api.push(await viaApi());
      base.push(await bare());
      sock.push(await viaClient('raw'));
      console.info(
        `run ${i + 1}/${runs}: API ${api[i].toFixed(1)} MB/s, bare blob store ${base[i].toFixed(1)} MB/s, ` +
          `plain socket into the blob store ${sock[i].toFixed(1)} MB/s`,
      );
    }
    const a = median(api);
    const b = median(base);
    const c = median(sock);
    console.info(
      `\nreport upload, ${(size / 1e6).toFixed(0)} MB PDF, median of ${runs}:\n` +
        `  HTTP API (multipart, PDF check, blob store, pending record): ${a.toFixed(1)} MB/s\n` +
        `  bare stream copy into the same blob store:                   ${b.toFixed(1)} MB/s\n` +
        `  the same client over a plain socket into the blob store:     ${c.toFixed(1)} MB/s\n` +
        `  ratio API / bare: ${(a / b).toFixed(2)}x (target >= 0.8x) ${a / b >= 0.8 ? 'MET' : 'NOT MET'}\n` +
        `  ratio API / plain socket: ${(a / c).toFixed(2)}x (what the API adds to receiving the bytes at all)\n` +
        `  per run, API / bare: ${range(api.map((x, i) => x / base[i]))}; API / plain socket: ` +
        `${range(api.map((x, i) => x / sock[i]))} (the runs move together when the disk, not the page cache, ` +
        `sets the pace: read them with the MB/s above)`,
    );
    raw.close();
    await client.terminate();
  } finally {
    await system.ctx.mongo.dropDatabase().catch(() => undefined);
    await system.close();
    await rm(dir, { recursive: true, force: true });
  }
}

runBench(main);
