import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayError } from '@gateway/core';
import { UpstreamClient } from './upstream-client';
import { s } from './upstream-schema';

interface Seen {
  path: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A server on 127.0.0.1 that records requests and answers with `reply`. */
async function server(reply: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: Seen[] = [];
  const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    seen.push({
      path: new URL(req.url!, 'http://x').pathname,
      url: req.url!,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('latin1'),
    });
    reply(req, res);
  };
  // a throw in this fake is a bug: left unhandled, as before, so the test run reports it
  const s = http.createServer((req, res) => void serve(req, res));
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((r) => s.close(() => r())),
  };
}

const KEY = 'secret-key-123456';
const ANY = s.unknown();

describe('UpstreamClient', () => {
  it('sends the key to its own origin only: a redirect to another host is followed without it', async () => {
    const storage = await server((_q, res) => res.end('the-bytes'));
    const api = await server((req, res) => {
      if (req.url!.startsWith('/hop')) return void res.writeHead(302, { location: '/file' }).end();
      if (req.url!.startsWith('/file')) return void res.writeHead(307, { location: `${storage.origin}/blob` }).end();
      res.end();
    });
    const client = new UpstreamClient({ baseUrl: `${api.origin}/v1`, headers: { 'x-goog-api-key': KEY } });
    try {
      const res = await client.download(`${api.origin}/hop`);
      expect(await res.text()).toBe('the-bytes');
      expect(api.seen.map((r) => r.headers['x-goog-api-key'])).toEqual([KEY, KEY]);
      expect(storage.seen).toHaveLength(1);
      expect(storage.seen[0]!.headers['x-goog-api-key']).toBeUndefined();
    } finally {
      client.destroy();
      await Promise.all([api.close(), storage.close()]);
    }
  });

  it('stops a redirect loop, repeats array query keys, sends multipart forms and maps failures through the provider describeFailure (redaction: upstream-redaction.test.ts)', async () => {
    const api = await server((req, res) => {
      if (req.url!.startsWith('/loop')) return void res.writeHead(302, { location: '/loop' }).end();
      if (req.url!.startsWith('/bad'))
        return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'bad prompt' } }));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    const client = new UpstreamClient({
      baseUrl: api.origin,
      headers: { authorization: `Bearer ${KEY}` },
      describeFailure: (f) =>
        new GatewayError('invalid_request', (f.json as { error: { message: string } }).error.message, { upstreamStatus: f.status }),
    });
    try {
      await expect(client.download(`${api.origin}/loop`)).rejects.toMatchObject({ code: 'upstream_redirect_loop' });
      expect(
        await client.json({ method: 'GET', path: '/list', query: { 'filter.task_ids': ['a', 'b'], page_size: '2' } }, ANY, 'a list'),
      ).toEqual({
        ok: true,
      });
      expect(api.seen.at(-1)!.url).toBe('/list?filter.task_ids=a&filter.task_ids=b&page_size=2');
      const form = new FormData();
      form.append('prompt', 'hi');
      form.append('input_reference', new Blob([Buffer.from('PNGDATA')], { type: 'image/png' }), 'f.png');
      await client.json({ method: 'POST', path: '/videos', form }, ANY, 'a video');
      const sent = api.seen.at(-1)!;
      expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      expect(sent.body).toContain('name="input_reference"; filename="f.png"');
      expect(sent.body).toContain('PNGDATA');
      expect(sent.headers['content-length']).toBe(String(Buffer.byteLength(sent.body)));
      const err = await client.request({ method: 'DELETE', path: '/bad' }).catch((e: Error) => e);
      expect(err).toMatchObject({ upstreamStatus: 400, message: 'bad prompt' });
    } finally {
      client.destroy();
      await api.close();
    }
  });

  it('checks every redirect hop away from the upstream host: private, loopback and IPv4-carrying IPv6 targets are refused', async () => {
    const target = await server((_q, res) => res.end('internal-bytes'));
    const port = new URL(target.origin).port;
    const hops: Record<string, string> = {
      '/to-localhost': `http://localhost:${port}/`,
      '/to-other-loopback': `http://127.0.0.2:${port}/`,
      '/to-mapped': `http://[::ffff:7f00:1]:${port}/`,
      '/to-compatible': `http://[::7f00:1]:${port}/`,
      '/to-metadata': 'http://169.254.169.254/latest/meta-data/',
    };
    const api = await server((req, res) => {
      const to = hops[new URL(req.url!, 'http://x').pathname];
      res.writeHead(to ? 302 : 200, to ? { location: to } : {});
      res.end(to ? '' : 'own-bytes');
    });
    const client = new UpstreamClient({ baseUrl: api.origin });
    try {
      for (const hop of Object.keys(hops))
        expect({
          hop,
          code: await client.download(`${api.origin}${hop}`).then(
            () => 'fetched',
            (e: GatewayError) => e.code,
          ),
        }).toEqual({
          hop,
          code: 'upstream_forbidden_address',
        });
      // a link handed out directly (no redirect) is held to the same rule; the upstream's own host is not
      await expect(client.download(`http://localhost:${port}/x`)).rejects.toMatchObject({ code: 'upstream_forbidden_address' });
      expect(await (await client.download(`${api.origin}/own`)).text()).toBe('own-bytes');
      expect(target.seen).toHaveLength(0);
    } finally {
      client.destroy();
      await Promise.all([api.close(), target.close()]);
    }
  });
});
