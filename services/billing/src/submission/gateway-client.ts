import http from 'node:http';
import https from 'node:https';

/**
 * The HTTP client the submission worker posts claims with (and the submission benchmark's bare loop, so that both
 * sides of its comparison pay the same client): node:http over a keep-alive agent, at most `sockets` connections
 * (the worker's concurrency). Node's `fetch` also keeps connections alive; this client is here because it costs
 * about half the CPU a post (measured: ~0.7 ms against ~1.0-1.5 ms with the stand-in answering in the same
 * process), on the process that also runs the queue, the relay and the consumers.
 *
 * - `timeoutMs` bounds the whole exchange (connect, request, answer and its body): past it the request is
 *   destroyed with a `TimeoutError`.
 * - A keep-alive connection the server closed while it sat idle fails the next request on it with ECONNRESET
 *   before anything was answered: that request is sent again once on a new connection (Node's documented remedy,
 *   `request.reusedSocket`). The claim carries its Idempotency-Key, so a claim the server did take is answered
 *   from its store, never taken twice.
 * - Network errors are thrown as they are (`code`: ECONNREFUSED, ECONNRESET, ...).
 * - At most `sockets` posts are in flight: a post beyond them waits its turn (first come, first served) before
 *   anything is sent, and its timeout starts when it is sent. So a caller may start more posts than `sockets`
 *   (the worker runs a few more jobs than claims in flight, recording answers while others send) and the billing
 *   system still sees at most `sockets` claims from this process.
 */
export interface GatewayReply {
  status: number;
  text: string;
}

export interface GatewayClient {
  post(path: string, body: string | Buffer, headers: Record<string, string>): Promise<GatewayReply>;
  /** close the idle connections */
  close(): void;
}

export class GatewayTimeoutError extends Error {
  override name = 'TimeoutError';
}

export function createGatewayClient(
  baseUrl: string,
  opts: { timeoutMs: number; sockets: number },
): GatewayClient {
  const base = new URL(baseUrl.replace(/\/+$/, ''));
  const transport = base.protocol === 'https:' ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets: opts.sockets });

  const once = (path: string, body: string | Buffer, headers: Record<string, string>) =>
    new Promise<GatewayReply>((resolve, reject) => {
      const req = transport.request(
        new URL(`${base.pathname.replace(/\/$/, '')}${path}`, base),
        {
          method: 'POST',
          agent,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            clearTimeout(timer);
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
          });
          res.on('error', (err) => {
            clearTimeout(timer);
            reject(err);
          });
        },
      );
      const timer = setTimeout(
        () => req.destroy(new GatewayTimeoutError(`no answer within ${opts.timeoutMs} ms`)),
        opts.timeoutMs,
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(Object.assign(err, { reusedSocket: req.reusedSocket }));
      });
      req.end(body);
    });

  // the posts in flight, and the posts waiting for one of them to end
  let inFlight = 0;
  const waiting: Array<() => void> = [];
  const turn = async () => {
    if (inFlight < opts.sockets) inFlight += 1;
    // the slot is handed over by `done` (inFlight stays as it is)
    else await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const done = () => {
    const next = waiting.shift();
    if (next) next();
    else inFlight -= 1;
  };

  return {
    async post(path, body, headers) {
      await turn();
      try {
        return await once(path, body, headers);
      } catch (err) {
        const e = err as NodeJS.ErrnoException & { reusedSocket?: boolean };
        if (e.reusedSocket && e.code === 'ECONNRESET') return await once(path, body, headers);
        throw err;
      } finally {
        done();
      }
    },
    close: () => agent.destroy(),
  };
}
