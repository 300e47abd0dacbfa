import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { s } from './upstream-schema';
import { UpstreamClient } from './upstream-client';

/** `/held` sends one chunk and waits for release(); anything else answers JSON at once. Sockets are watched. */
async function upstream() {
  const sockets: Socket[] = [];
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    for await (const chunk of req) void chunk;
    if (req.url === '/held') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first ');
      await released;
      res.end('last');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  };
  // a throw in this fake is a bug: left unhandled, as before, so the test run reports it
  const server = http.createServer((req, res) => void serve(req, res));
  server.on('connection', (s) => sockets.push(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sockets,
    release,
    closed: (s: Socket) => new Promise<void>((r) => (s.destroyed ? r() : s.once('close', () => r()))),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('UpstreamClient.drain', () => {
  it('closes idle sockets at once and lets a call in flight finish, then lets go of its socket', async () => {
    const up = await upstream();
    const t = new UpstreamClient({ baseUrl: up.url });
    try {
      const held = await t.request({ method: 'POST', path: '/held', json: {} });
      const body = held.body();
      expect(String((await body.next()).value)).toBe('first ');
      expect(
        await (await t.request({ method: 'POST', path: '/quick', json: {} })).json(s.object({ ok: s.boolean() }), 'an answer'),
      ).toEqual({ ok: true });
      expect(up.sockets).toHaveLength(2);
      const [busy, idle] = up.sockets;

      t.drain();
      await up.closed(idle!);
      expect(busy!.destroyed).toBe(false);

      up.release();
      let rest = '';
      for await (const c of body) rest += String(c);
      expect(rest).toBe('last');
      await up.closed(busy!);
    } finally {
      t.destroy();
      await up.close();
    }
  });
});
