import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  path: string;
  /** what this receiver answered */
  answered: number;
  /** when it arrived (Date.now()) */
  receivedAt: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** the status to answer the next POSTs with (default 204) */
  answer(status: number): void;
  /** the received bodies whose signature the standardwebhooks package verifies with `secret`, parsed */
  verified(secret: string, path?: string): Array<Record<string, any>>;
  close(): Promise<void>;
}

/** A webhook consumer on 127.0.0.1: records every POST, answers what the test says. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let status = 204;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const h = (n: string) => String(req.headers[n] ?? '');
      received.push({
        id: h('webhook-id'),
        timestamp: h('webhook-timestamp'),
        signature: h('webhook-signature'),
        body: Buffer.concat(chunks).toString('utf8'),
        path: req.url ?? '',
        answered: status,
        receivedAt: Date.now(),
      });
      res.statusCode = status;
      res.end(status >= 400 ? 'not now' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    answer: (s) => void (status = s),
    verified(secret, path) {
      const wh = new Webhook(secret);
      return received
        .filter((r) => path === undefined || r.path === path)
        .map(
          (r) =>
            wh.verify(r.body, { 'webhook-id': r.id, 'webhook-timestamp': r.timestamp, 'webhook-signature': r.signature }) as Record<
              string,
              any
            >,
        );
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads a server-sent event stream to its end; each `data:` message parsed. */
export async function readEventStream(
  url: string,
  key: string,
): Promise<{ status: number; contentType: string; events: any[]; body?: any }> {
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
    signal: AbortSignal.timeout(60_000),
  });
  const contentType = res.headers.get('content-type') ?? '';
  if (!contentType.startsWith('text/event-stream')) return { status: res.status, contentType, events: [], body: await res.json() };
  const text = await res.text();
  const events = text
    .split('\n\n')
    .map((m) => m.split('\n').find((l) => l.startsWith('data: ')))
    .filter((l): l is string => Boolean(l))
    .map((l) => JSON.parse(l.slice(6)));
  return { status: res.status, contentType, events };
}
