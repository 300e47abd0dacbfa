import http from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import { GatewayError, invalid, newId, toGatewayError } from '@gateway/core';
import { extractKey, openAiErrorShape, type Authenticator } from '@gateway/http-kit';
import { encodeResponse } from './responses.response.codec';
import { ConnectionMemory } from './responses.websocket.memory';

/** Messages a connection may hold at once, the running one included. */
const MAX_PENDING_MESSAGES = 16;
/** Their bytes: one message of the largest size the server takes (its maxPayload, the HTTP route's body limit). */
export const MAX_PENDING_BYTES = 32 * 1024 * 1024;
/** Connections one key may hold open on an instance unless configured (RESPONSES_WS_MAX_PER_KEY). */
export const DEFAULT_SOCKETS_PER_KEY = 16;

/** The path both transports of the Responses API share: POST for HTTP, GET with an upgrade for WebSocket. */
export const RESPONSES_SOCKET_PATH = '/v1/responses';

/** A WebSocket as this session needs it: text frames in and out; the server's `ws` adapter provides it. */
export interface TextSocket {
  /** resolves once the frame is handed to the socket (a slow reader slows the stream, as over SSE) */
  send(text: string): Promise<void>;
  onMessage(listener: (text: string) => void): void;
  onClose(listener: () => void): void;
  /** ends the connection with a close code and reason */
  close(code: number, reason: string): void;
  readonly open: boolean;
}

/** How one `response.create` is served: the HTTP route itself (limits, usage rows, billing, logs), over loopback. */
export interface ResponsesDispatch {
  /** the origin of this server's own listener, e.g. `http://127.0.0.1:8080` */
  origin(): string;
}

export type SocketAcceptance = { ok: true; serve(socket: TextSocket): void } | { ok: false; status: number; body: unknown };

/**
 * The WebSocket mode of the Responses API (what Codex's built-in provider opens first): the upgrade is
 * authenticated like the HTTP route and refused with its 401 before the upgrade is accepted; then each
 * `{"type":"response.create", ...body}` message runs as one streamed POST /v1/responses, and every SSE event's
 * JSON is sent as one text frame. Responses run one after the other on a connection; `previous_response_id` works
 * across them and across HTTP because they are the same stored responses. A bad message answers with
 * `{"type":"error","status",...,"error":{...}}` (the OpenAI error object) and the connection serves the next one.
 */
export function responsesSocket(deps: { authenticate: Authenticator; maxPerKey?: number } & ResponsesDispatch) {
  const maxPerKey = deps.maxPerKey ?? DEFAULT_SOCKETS_PER_KEY;
  /** open connections by key id: a socket holds its queue and an HTTP request of its own, so one key's are capped */
  const open = new Map<string, number>();
  const tooMany = () =>
    new GatewayError('rate_limited', `This key already has ${maxPerKey} WebSocket connections open; close one before opening another.`, {
      code: 'too_many_connections',
    });
  return {
    path: RESPONSES_SOCKET_PATH,
    async accept(req: IncomingMessage): Promise<SocketAcceptance> {
      let keyId: string;
      try {
        keyId = (await deps.authenticate(extractKey(expressLike(req)))).keyId;
        if ((open.get(keyId) ?? 0) >= maxPerKey) throw tooMany();
      } catch (e) {
        const { status, body } = openAiErrorShape.render(toGatewayError(e));
        return { ok: false, status, body };
      }
      return {
        ok: true,
        serve(socket) {
          // counted once served (a failed handshake never is); two upgrades racing past the check are closed here
          const count = (open.get(keyId) ?? 0) + 1;
          open.set(keyId, count);
          socket.onClose(() => {
            const left = (open.get(keyId) ?? 1) - 1;
            if (left > 0) open.set(keyId, left);
            else open.delete(keyId);
          });
          if (count > maxPerKey) return socket.close(1013, tooMany().message);
          serveSession(socket, req, deps);
        },
      };
    },
  };
}

/** extractKey reads headers through express's accessor; an upgrade request has only node's header object. */
function expressLike(req: IncomingMessage): Request {
  const header = (name: string) => {
    const v = req.headers[name.toLowerCase()];
    return Array.isArray(v) ? v[0] : v;
  };
  return { header, query: {} } as unknown as Request;
}

function serveSession(socket: TextSocket, upgrade: IncomingMessage, deps: ResponsesDispatch): void {
  let queue = Promise.resolve();
  let inFlight: http.ClientRequest | undefined;
  const memory = new ConnectionMemory();
  socket.onClose(() => inFlight?.destroy());
  const sendError = (err: GatewayError) => {
    const { status, body } = openAiErrorShape.render(err);
    return socket.send(JSON.stringify({ type: 'error', status, ...(body as object) }));
  };
  let pending = 0;
  let pendingBytes = 0;
  socket.onMessage((text) => {
    // responses run one at a time: a client that sends faster than they finish is refused, not buffered without end
    const bytes = Buffer.byteLength(text);
    if (pendingBytes + bytes > MAX_PENDING_BYTES) {
      void sendError(
        new GatewayError(
          'rate_limited',
          `Messages waiting on this connection may hold at most ${MAX_PENDING_BYTES} bytes; wait for a response to finish.`,
          { code: 'too_many_pending_bytes' },
        ),
      );
      return;
    }
    if (pending >= MAX_PENDING_MESSAGES) {
      void sendError(
        new GatewayError(
          'rate_limited',
          `More than ${MAX_PENDING_MESSAGES} messages are waiting on this connection; wait for a response to finish.`,
          {
            code: 'too_many_pending_messages',
          },
        ),
      );
      return;
    }
    pending++;
    pendingBytes += bytes;
    queue = queue
      .then(async () => {
        if (!socket.open) return;
        const message = parseMessage(text);
        if (message === 'ignored') return;
        const { generate, ...asked } = message;
        const body = memory.expand(asked);
        if (generate === false) {
          const events = warmUp(body);
          memory.remember(events.id, body.input, []);
          for (const event of events.frames) await socket.send(JSON.stringify(event));
          return;
        }
        await relay(body);
      })
      .catch((e: unknown) => (socket.open ? sendError(toGatewayError(e)) : undefined))
      .finally(() => {
        pending--;
        pendingBytes -= bytes;
      });
  });

  const rememberCompleted = (body: Record<string, unknown>, frame: string) => {
    const event = parseJson(frame) as { type?: string; response?: { id?: string; output?: unknown[] } } | undefined;
    if (event?.type === 'response.completed' && typeof event.response?.id === 'string')
      memory.remember(event.response.id, body.input, event.response.output ?? []);
  };

  /** One create through the HTTP route; each SSE event's data goes out as one frame, an HTTP refusal as an error event. */
  const relay = (body: Record<string, unknown>) =>
    new Promise<void>((resolve, reject) => {
      const payload = JSON.stringify({ ...body, stream: true });
      const req = http.request(`${deps.origin()}${RESPONSES_SOCKET_PATH}`, {
        method: 'POST',
        headers: forwardedHeaders(upgrade, payload),
      });
      inFlight = req;
      req.on('error', (e) => (socket.open ? reject(e) : resolve()));
      req.on('response', (res) => {
        res.setEncoding('utf8');
        let buffered = '';
        if (res.statusCode !== 200) {
          res.on('data', (c: string) => (buffered += c));
          res.on('end', () => {
            const error = parseJson(buffered) as { error?: unknown } | undefined;
            socket.send(JSON.stringify({ type: 'error', status: res.statusCode, error: error?.error ?? error })).then(resolve, reject);
          });
          return;
        }
        res.on('data', (chunk: string) => {
          buffered += chunk;
          const events = buffered.split('\n\n');
          buffered = events.pop() ?? '';
          const frames = events.flatMap(dataOf);
          if (frames.length === 0) return;
          res.pause();
          void (async () => {
            for (const f of frames) {
              if (body.store === false && f.includes('"response.completed"')) rememberCompleted(body, f);
              await socket.send(f);
            }
            res.resume();
          })();
        });
        res.on('end', () => resolve());
        res.on('close', () => resolve());
      });
      req.end(payload);
    }).finally(() => (inFlight = undefined));
}

/** A client message: a create body (its type removed), or 'ignored' for the acknowledgement Codex sends after each response. */
function parseMessage(text: string): Record<string, unknown> | 'ignored' {
  const message = parseJson(text);
  if (typeof message !== 'object' || message === null || Array.isArray(message))
    throw invalid('invalid_json', 'A message must be a JSON object such as {"type":"response.create", ...}.');
  const { type, ...body } = message as Record<string, unknown>;
  if (type === 'response.processed') return 'ignored';
  if (type !== 'response.create')
    throw invalid('unsupported_message_type', `Unsupported message type ${JSON.stringify(type)}; send "response.create".`, 'type');
  return body;
}

/**
 * `generate: false` only prepares the connection (Codex warms it up this way): no model runs, nothing is stored or
 * billed; the answer is the created and completed events of an empty response.
 */
function warmUp(body: Record<string, unknown>): { id: string; frames: object[] } {
  const header = { id: `resp_${newId('', 12)}`, createdAt: Math.floor(Date.now() / 1000), model: String(body.model ?? ''), body };
  const response = encodeResponse(header, { status: 'completed', output: [] });
  return {
    id: header.id,
    frames: [
      { type: 'response.created', response: { ...response, status: 'in_progress' }, sequence_number: 0 },
      { type: 'response.completed', response, sequence_number: 1 },
    ],
  };
}

/** What the HTTP route needs of the upgrade request: the key, the origin it came in on, the caller's identity. */
function forwardedHeaders(upgrade: IncomingMessage, payload: string): http.OutgoingHttpHeaders {
  const h = upgrade.headers;
  const pick = (name: string) => (h[name] === undefined ? {} : { [name]: h[name] });
  return {
    ...pick('authorization'),
    ...pick('host'),
    ...pick('user-agent'),
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
  };
}

function dataOf(event: string): string[] {
  return event
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => l.slice('data: '.length));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
