import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackAnswer {
  statusCode: number;
  requestId: string;
  body: unknown;
}

/**
 * The gateway calling its own routes (a batch line is a request as a client would send it): an HTTP server of the
 * same app on a private loopback port, opened on first use. Every call carries a delegated key the process issued
 * itself; JSON answers come back parsed, any other answer as text.
 */
export class LoopbackCalls {
  private server?: Server;
  private port?: Promise<number>;

  constructor(private readonly app: () => RequestListener) {}

  async post(
    path: string,
    token: string,
    body: unknown,
    signal: AbortSignal,
    headers: Readonly<Record<string, string>> = {},
  ): Promise<LoopbackAnswer> {
    const port = await (this.port ??= this.listen());
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json'))
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    return { statusCode: res.status, requestId: res.headers.get('x-request-id') ?? '', body: parsed };
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.port = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private listen(): Promise<number> {
    const server = (this.server = createServer(this.app()));
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  }
}
