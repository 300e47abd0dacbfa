import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of an upstream that counts the connections the gateway holds to it, and can cut one
 * response short: `cutNextResponse(n)` destroys both sides after the next n bytes of response (headers included),
 * a connection reset in the middle of a body, whatever the dialect.
 */
export interface CountingProxy {
  url: string;
  /** connections open right now */
  open(): number;
  /** connections ever accepted */
  accepted(): number;
  cutNextResponse(afterBytes: number): void;
  close(): Promise<void>;
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const t = new URL(target);
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  let cut: { left: number } | null = null;

  const server = net.createServer((client) => {
    accepted++;
    const upstream = net.connect(Number(t.port), t.hostname);
    sockets.add(client);
    // A FIN is passed on as a FIN (after the bytes before it), a reset as a reset.
    const reset = () => {
      client.resetAndDestroy();
      upstream.destroy();
    };
    client.on('error', reset).on('close', () => {
      sockets.delete(client);
      upstream.destroy();
    });
    upstream
      .on('error', reset)
      .on('end', () => client.end())
      .on('close', () => setTimeout(() => client.destroy(), 100));
    client.pipe(upstream);
    upstream.on('data', (d: Buffer) => {
      if (cut) {
        if (d.length >= cut.left) {
          client.write(d.subarray(0, cut.left));
          cut = null;
          // Let the written bytes leave, then drop both sides as a reset would.
          setImmediate(() => {
            client.resetAndDestroy();
            upstream.destroy();
          });
          return;
        }
        cut.left -= d.length;
      }
      if (!client.write(d)) {
        upstream.pause();
        client.once('drain', () => upstream.resume());
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${t.protocol}//127.0.0.1:${port}${t.pathname.replace(/\/$/, '')}`,
    open: () => sockets.size,
    accepted: () => accepted,
    cutNextResponse: (afterBytes) => {
      cut = { left: afterBytes };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
