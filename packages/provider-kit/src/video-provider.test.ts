import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { VideoModelPort } from '@gateway/core';
import { bearerAuth, createVideoProvider, type VideoUpstream } from './video-provider';
import type { UpstreamHttp } from './upstream-http';

const schema = { properties: { maxSockets: {} } };

function upstream(over: Partial<VideoUpstream> = {}): VideoUpstream & { built: UpstreamHttp[] } {
  const built: UpstreamHttp[] = [];
  return {
    built,
    defaultBaseUrl: 'https://video.example/v1',
    optionsSchema: schema,
    auth: bearerAuth,
    requestIdHeaders: ['x-request-id'],
    describeFailure: undefined,
    model: (h) => {
      built.push(h);
      return {} as VideoModelPort;
    },
    ...over,
  };
}

describe('createVideoProvider', () => {
  it('refuses options outside the schema and a missing key, naming them', () => {
    expect(() => createVideoProvider({ apiKey: 'k', options: { speed: 1 } }, upstream())).toThrow(/speed/);
    expect(() => createVideoProvider({}, upstream())).toThrow(/apiKey/);
  });

  it('sends the auth headers on every call, to the configured base URL, and hands the options to the model', async () => {
    let seen: http.IncomingHttpHeaders | undefined;
    const server = http.createServer((req, res) => {
      seen = req.headers;
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const seenOptions: unknown[] = [];
    const up = upstream({
      auth: (key) => ({ headers: { authorization: `Bearer ${key}`, 'x-version': '2' }, secrets: [key] }),
      model: (h, _key, o) => {
        seenOptions.push(o);
        up.built.push(h);
        return {} as VideoModelPort;
      },
    });
    const p = createVideoProvider(
      { apiKey: 'sk-video-key-1234', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, options: { maxSockets: 2 } },
      up,
    );
    try {
      expect((await up.built[0]!.request({ method: 'GET', path: '/tasks/1' })).status).toBe(200);
      expect(seen).toMatchObject({ authorization: 'Bearer sk-video-key-1234', 'x-version': '2' });
      expect(seenOptions).toEqual([{ maxSockets: 2 }]);
    } finally {
      p.close();
      server.close();
    }
  });
});
