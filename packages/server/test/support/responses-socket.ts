import WebSocket from 'ws';

/** The frames that end a `response.create`: the response's terminal event, or an error event for the message. */
const isTerminal = (f: any) =>
  ['response.completed', 'response.failed', 'response.incomplete'].includes(f.type) || (f.type === 'error' && f.status);

/**
 * An open connection to the Responses API's WebSocket mode whose frames are read in order: `next()` waits for the
 * next one (never for a fixed time); `create` sends one `response.create` and reads up to its terminal frame; `close`
 * resolves once the connection is closed.
 */
export async function connectResponsesSocket(url: string, headers: Record<string, string>) {
  const ws = new WebSocket(url, { headers });
  const frames: any[] = [];
  const waiting: Array<(f: any) => void> = [];
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data));
    const w = waiting.shift();
    if (w) w(frame);
    else frames.push(frame);
  });
  const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const next = () => (frames.length ? Promise.resolve(frames.shift()) : new Promise<any>((r) => waiting.push(r)));
  const create = async (body: object) => {
    ws.send(JSON.stringify({ type: 'response.create', ...body }));
    const events: any[] = [];
    for (;;) {
      const f = await next();
      events.push(f);
      if (isTerminal(f)) return events;
    }
  };
  /** closes the connection; resolves once it is closed */
  const close = () => (ws.close(), closed);
  return { ws, next, create, close };
}
