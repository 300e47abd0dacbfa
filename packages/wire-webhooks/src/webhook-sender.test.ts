import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpWebhookSender } from './webhook-sender';

/** A loopback server that answers each POST with `handler`, counting what arrived. */
async function target(handler: http.RequestListener) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    hits,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

const post = { headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 5000 };

describe('webhook sender', () => {
  it('does not follow a redirect: the 3xx is the answer', async () => {
    const t = await target((_req, res) => {
      res.writeHead(302, { location: '/elsewhere' });
      res.end('moved');
    });
    try {
      const sender = httpWebhookSender({ allowedHosts: [`127.0.0.1:${t.port}`] });
      expect(await sender.post(`http://127.0.0.1:${t.port}/hook`, post)).toEqual({ status: 302, excerpt: 'moved' });
      expect(t.hits).toEqual(['POST /hook']);
    } finally {
      await t.close();
    }
  });

  it('refuses a host that resolves to a non-public address unless it is allowed, sending nothing', async () => {
    const t = await target((_req, res) => res.end());
    try {
      const lookup = async () => [{ address: '127.0.0.1', family: 4 as const }];
      const refused = await httpWebhookSender({ allowedHosts: [] }, lookup).post(`https://hooks.example.com:${t.port}/`, post);
      expect(refused).toEqual({ error: expect.stringContaining('public address') });
      const plainHttp = await httpWebhookSender({ allowedHosts: [] }, lookup).post(`http://hooks.example.com:${t.port}/`, post);
      expect(plainHttp).toEqual({ error: expect.stringContaining('https') });
      expect(t.hits).toEqual([]);
      // allowed: the connection goes to the address the lookup gave (pinned), over http
      // a bare host is its scheme's default port only
      const otherPort = await httpWebhookSender({ allowedHosts: ['hooks.example.com'] }, lookup).post(
        `http://hooks.example.com:${t.port}/`,
        post,
      );
      expect(otherPort).toEqual({ error: expect.stringContaining('https') });
      const allowed = await httpWebhookSender({ allowedHosts: [`hooks.example.com:${t.port}`] }, lookup).post(
        `http://hooks.example.com:${t.port}/x`,
        post,
      );
      expect(allowed).toEqual({ status: 200, excerpt: '' });
      expect(t.hits).toEqual(['POST /x']);
    } finally {
      await t.close();
    }
  });

  it('says the same whether a name does not resolve or resolves to a refused address', async () => {
    const unknown = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const internal = async () => [{ address: '10.1.2.3', family: 4 as const }];
    const none = async () => [];
    const answers = await Promise.all(
      [unknown, internal, none].map((lookup) => httpWebhookSender({ allowedHosts: [] }, lookup).post('https://db.internal/hook', post)),
    );
    expect(answers[0]).toEqual({ error: expect.stringContaining('public address') });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it('gives up on a target that never answers, after its time limit', async () => {
    const t = await target(() => undefined);
    try {
      const answer = await httpWebhookSender({ allowedHosts: [`127.0.0.1:${t.port}`] }).post(`http://127.0.0.1:${t.port}/`, {
        ...post,
        timeoutMs: 300,
      });
      expect(answer).toEqual({ error: 'no answer within 300 ms' });
    } finally {
      await t.close();
    }
  });
});
