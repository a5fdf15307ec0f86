import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createGatewayClient, type GatewayClient } from './gateway-client';

/**
 * The worker's HTTP client against raw loopback servers (no services): connections kept alive and shared by at
 * most `sockets` requests, the whole exchange bounded by the timeout, and a keep-alive connection the server
 * dropped while idle retried once on a new one.
 */

type Behaviour = (socket: net.Socket, nthOnSocket: number, body: string) => void;

/** A tiny HTTP/1.1 server: one request per data chunk (our requests are small), answered by `behave`. */
async function rawServer(behave: Behaviour) {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    let n = 0;
    socket.on('data', (chunk) => {
      n += 1;
      behave(socket, n, chunk.toString('utf8').split('\r\n\r\n')[1] ?? '');
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const ok = (socket: net.Socket, body: string) =>
  socket.write(
    `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `connection: keep-alive\r\n\r\n${body}`,
  );

describe('gateway client', () => {
  const open: { close(): unknown }[] = [];
  const track = <T extends { close(): unknown }>(x: T) => (open.push(x), x);
  afterEach(async () => {
    for (const x of open.splice(0).reverse()) await x.close();
  });

  it('keeps connections alive: 200 posts, 4 at a time, over at most 4 connections', async () => {
    const server = track(await rawServer((socket, _n, body) => ok(socket, body)));
    const client: GatewayClient = track(createGatewayClient(server.url, { timeoutMs: 2000, sockets: 4 }));
    let next = 0;
    const answers: string[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < 200) {
          const i = next++;
          const res = await client.post('/claims', JSON.stringify({ i }), {
            'content-type': 'application/json',
          });
          expect(res.status).toBe(200);
          answers.push(res.text);
        }
      }),
    );
    expect(answers).toHaveLength(200);
    expect(answers).toContain('{"i":199}');
    expect(server.connections()).toBeLessThanOrEqual(4);
  });

  it('never has more than `sockets` posts in flight; the others wait their turn, first come first served', async () => {
    // the server holds every request 50 ms and counts how many it holds at once
    let held = 0;
    let most = 0;
    const order: number[] = [];
    const server = track(
      await rawServer((socket, _n, body) => {
        held += 1;
        most = Math.max(most, held);
        order.push(JSON.parse(body).i);
        setTimeout(() => {
          held -= 1;
          ok(socket, body);
        }, 50);
      }),
    );
    const client = track(createGatewayClient(server.url, { timeoutMs: 2000, sockets: 3 }));
    // 12 posts started at once: 4 rounds of 3
    const t0 = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => client.post('/claims', JSON.stringify({ i }), {})),
    );
    expect(answers.map((a) => JSON.parse(a.text).i)).toEqual([...Array(12).keys()]);
    expect(most).toBe(3);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(4 * 50 - 5);
    // served in the order they were started, a round of 3 at a time
    expect(order.slice(0, 3).sort()).toEqual([0, 1, 2]);
    expect(order.slice(9).sort((a, b) => a - b)).toEqual([9, 10, 11]);
  });

  it('a post waiting its turn is timed from when it is sent, and a failed post frees its turn', async () => {
    // the first request on the only connection is never answered; later ones are answered at once
    const server = track(
      await rawServer((socket, n, body) => (body === '"stuck"' ? undefined : ok(socket, body))),
    );
    const client = track(createGatewayClient(server.url, { timeoutMs: 300, sockets: 1 }));
    const stuck = client.post('/claims', '"stuck"', {});
    const t0 = Date.now();
    const waiter = client.post('/claims', '"next"', {});
    await expect(stuck).rejects.toMatchObject({ name: 'TimeoutError' });
    // it waited ~300 ms for its turn, then was answered: its own timeout had not run while it waited
    expect((await waiter).text).toBe('"next"');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
  });

  it('gives up after the timeout with a TimeoutError', async () => {
    const server = track(await rawServer(() => undefined));
    const client = track(createGatewayClient(server.url, { timeoutMs: 200, sockets: 1 }));
    const t0 = Date.now();
    await expect(client.post('/claims', '{}', {})).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('sends again once on a new connection when a kept-alive connection was dropped', async () => {
    // the second request on any connection finds it closed (as when the server's idle timeout ran out)
    const server = track(
      await rawServer((socket, n, body) => (n === 1 ? ok(socket, body) : socket.resetAndDestroy())),
    );
    const client = track(createGatewayClient(server.url, { timeoutMs: 2000, sockets: 1 }));
    expect((await client.post('/claims', '"a"', {})).text).toBe('"a"');
    expect((await client.post('/claims', '"b"', {})).text).toBe('"b"');
    expect(server.connections()).toBe(2);
  });

  it('does not send again when a new connection is refused or reset', async () => {
    const server = track(await rawServer((socket) => socket.resetAndDestroy()));
    const client = track(createGatewayClient(server.url, { timeoutMs: 2000, sockets: 1 }));
    await expect(client.post('/claims', '{}', {})).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(server.connections()).toBe(1);
    await server.close();
    await expect(client.post('/claims', '{}', {})).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
