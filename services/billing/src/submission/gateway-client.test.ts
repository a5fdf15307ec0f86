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
