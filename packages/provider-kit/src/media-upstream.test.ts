import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { textAndMediaClients } from './media-upstream';
import { s } from './upstream-schema';

describe('textAndMediaClients', () => {
  it('keeps media calls on sockets of their own and closes both clients together', async () => {
    const sockets: Socket[] = [];
    const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    server.on('connection', (socket) => sockets.push(socket));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const clients = textAndMediaClients({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    try {
      const ok = s.object({ ok: s.boolean() });
      for (const client of [clients.text, clients.media, clients.text, clients.media])
        expect(await (await client.request({ method: 'GET', path: '/x' })).json(ok, 'an answer')).toEqual({ ok: true });
      // kept alive: one socket per client, reused by its second call
      expect(sockets).toHaveLength(2);

      clients.close();
      await Promise.all(sockets.map((socket) => new Promise<void>((r) => (socket.destroyed ? r() : socket.once('close', () => r())))));
      expect(sockets.every((socket) => socket.destroyed)).toBe(true);
    } finally {
      clients.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
