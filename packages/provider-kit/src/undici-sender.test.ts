import { EventEmitter } from 'node:events';
import http from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { UpstreamClient } from './upstream-client';
import { s } from './upstream-schema';

/** `/held` sends its headers and waits for release() to end; anything else answers JSON at once. Sockets are watched. */
async function upstream() {
  const sockets: Socket[] = [];
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    if (req.url === '/held') {
      res.writeHead(200, { 'content-type': 'application/json' }).write('{"ok":');
      return void held.push(res);
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  server.on('connection', (socket) => sockets.push(socket));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sockets,
    release: () => held.splice(0).forEach((res) => res.end('true}')),
    closed: (socket: Socket) => new Promise<void>((r) => (socket.destroyed ? r() : socket.once('close', () => r()))),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const OK = s.object({ ok: s.boolean() });

/** The objects that got a listener while `work` ran, once per listener added (emitters and event targets alike). */
async function listenedToBy(work: () => Promise<unknown>): Promise<object[]> {
  const targets: object[] = [];
  const patched = ['on', 'addListener', 'once', 'prependListener', 'prependOnceListener'] as const;
  const originals = patched.map((m) => EventEmitter.prototype[m]);
  const addEventListener = EventTarget.prototype.addEventListener;
  patched.forEach((m, i) => {
    EventEmitter.prototype[m] = function (this: EventEmitter, ...a: Parameters<EventEmitter['on']>) {
      targets.push(this);
      return originals[i]!.apply(this, a);
    };
  });
  EventTarget.prototype.addEventListener = function (this: EventTarget, ...a: Parameters<EventTarget['addEventListener']>) {
    targets.push(this);
    return addEventListener.apply(this, a);
  };
  try {
    await work();
  } finally {
    patched.forEach((m, i) => (EventEmitter.prototype[m] = originals[i]!));
    EventTarget.prototype.addEventListener = addEventListener;
  }
  return targets;
}

describe('the undici sender', () => {
  it("adds no listener per call to its kept-alive socket, and no abort listener but the one on the caller's signal (issue 40)", async () => {
    const up = await upstream();
    const client = new UpstreamClient({ baseUrl: up.url });
    const port = Number(new URL(up.url).port);
    try {
      const call = () => client.json({ method: 'POST', path: '/x', json: {}, signal: new AbortController().signal }, OK, 'an answer');
      // undici lets a freed socket sit one event-loop turn before reusing it, so back-to-back calls open a second one
      for (let i = 0; i < 3; i++) await call();
      const opened = up.sockets.length;
      const targets = await listenedToBy(call);
      const ourSocket = targets.filter((t) => t instanceof Socket && t.remotePort === port);
      const signals = targets.filter((t) => t instanceof EventTarget);
      expect({ socket: ourSocket.length, signals: signals.length }).toEqual({ socket: 0, signals: 1 });
      expect(up.sockets).toHaveLength(opened);
    } finally {
      client.destroy();
      await up.close();
    }
  });

  it('a call waiting for a socket fails as soon as its caller leaves or its first-byte clock runs out', async () => {
    const up = await upstream();
    const client = new UpstreamClient({ baseUrl: up.url, maxSockets: 1, timeouts: { firstByteMs: 300 } });
    try {
      const busy = await client.request({ method: 'POST', path: '/held', json: {} }); // holds the only socket
      const caller = new AbortController();
      const queued = client.request({ method: 'POST', path: '/x', json: {}, signal: caller.signal });
      caller.abort();
      await expect(queued).rejects.toMatchObject({ code: 'client_closed' });
      const started = performance.now();
      await expect(client.request({ method: 'POST', path: '/x', json: {} })).rejects.toMatchObject({
        code: 'upstream_timeout',
        upstreamCode: 'first byte',
      });
      expect(performance.now() - started).toBeGreaterThanOrEqual(250);
      up.release();
      expect(await busy.json(OK, 'an answer')).toEqual({ ok: true });
      expect(await client.json({ method: 'POST', path: '/x', json: {} }, OK, 'an answer')).toEqual({ ok: true });
    } finally {
      up.release();
      client.destroy();
      await up.close();
    }
  });

  it('a call made after a drain is still sent, on a socket let go once it is answered', async () => {
    const up = await upstream();
    const client = new UpstreamClient({ baseUrl: up.url });
    try {
      client.drain();
      expect(await client.json({ method: 'POST', path: '/x', json: {} }, OK, 'an answer')).toEqual({ ok: true });
      expect(up.sockets).toHaveLength(1);
      await up.closed(up.sockets[0]!);
    } finally {
      client.destroy();
      await up.close();
    }
  });
});
