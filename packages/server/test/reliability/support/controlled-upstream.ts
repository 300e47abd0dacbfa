import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { FAKE_DIALECTS, type FakeDialectName } from '@gateway/testkit';

/**
 * A streaming upstream in one provider dialect (frames from testkit's fakes) that the test steers and watches
 * at the socket level, for what the scripted fakes cannot show:
 * - `hold`: sends the stream's opening frames and one delta, then waits until released (or the peer leaves);
 * - `endless`: repeats a delta frame for ever, but only as fast as the peer reads (it honours backpressure),
 *   so a reader that stops shows up here as a producer that is blocked and a byte count that stops growing.
 */
export type UpstreamMode = 'hold' | 'endless';

export interface StreamRecord {
  /** when the gateway's upstream connection closed (ms since epoch), or null while open */
  closedAt: number | null;
  bytesWritten: number;
  /** waiting for 'drain' right now */
  blocked: boolean;
  finished: boolean;
}

export interface ControlledUpstream {
  url: string;
  apiKey: string;
  mode: UpstreamMode;
  streams: StreamRecord[];
  /** sockets the gateway holds open to this upstream now */
  openSockets(): number;
  /** ends every held stream normally (the rest of its frames) */
  releaseAll(): void;
  close(): Promise<void>;
}

export async function startControlledUpstream(dialect: FakeDialectName, mode: UpstreamMode = 'hold'): Promise<ControlledUpstream> {
  const d = FAKE_DIALECTS[dialect];
  const streams: StreamRecord[] = [];
  const releases = new Set<() => void>();
  const sockets = new Set<Socket>();
  const state = { mode };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    const recorded = {
      method: req.method ?? 'POST',
      path: new URL(req.url ?? '/', 'http://x').pathname,
      query: {},
      headers: req.headers,
      body,
      rawBody: '',
    };
    const route = d.route(recorded.method, recorded.path, recorded);
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    const reply = { text: 'one two three four five six seven eight nine' };
    if (!route.stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(d.json(reply, route, recorded)));
      return;
    }
    const frames = d.frames(reply, route, recorded);
    // The opening frames (before the first text delta), one delta frame, and what closes the stream.
    const firstDelta = frames.findIndex((f) => f.includes('"one'));
    const opening = frames.slice(0, firstDelta);
    const delta = frames[firstDelta];
    const closing = frames.slice(firstDelta + 1);
    const rec: StreamRecord = { closedAt: null, bytesWritten: 0, blocked: false, finished: false };
    streams.push(rec);
    res.on('close', () => {
      rec.closedAt = Date.now();
    });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const write = async (frame: string) => {
      rec.bytesWritten += Buffer.byteLength(frame);
      if (!res.write(frame)) {
        rec.blocked = true;
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        });
        rec.blocked = false;
      }
    };
    for (const f of [...opening, delta]) await write(f!);
    if (state.mode === 'endless') {
      while (!res.destroyed) await write(delta!);
      return;
    }
    await new Promise<void>((r) => {
      releases.add(r);
      res.once('close', r);
    });
    if (res.destroyed) return;
    for (const f of closing) await write(f);
    rec.finished = true;
    res.end();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin + d.basePath,
    apiKey: `controlled-${dialect}-key`,
    get mode() {
      return state.mode;
    },
    set mode(m: UpstreamMode) {
      state.mode = m;
    },
    streams,
    openSockets: () => sockets.size,
    releaseAll: () => {
      for (const r of releases) r();
      releases.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
