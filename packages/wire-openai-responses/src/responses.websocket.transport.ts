import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type * as Ws from 'ws';
import type { WebSocket, WebSocketServer } from 'ws';
import type { SocketAcceptance, TextSocket } from './responses.websocket';

/** Where a failed upgrade is reported: the server's logger fits. */
export interface UpgradeLogger {
  error(message: string, fields: Record<string, unknown>): void;
}

/** A path served over WebSocket: the wire format decides whether to accept the upgrade and serves the socket. */
export interface SocketRoute {
  path: string;
  accept(req: IncomingMessage): Promise<SocketAcceptance>;
}

/** The largest client message accepted (a create body with a long history): the JSON body limit's order. */
const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/**
 * WebSocket upgrades on the express server's own port (`ws`, no server of its own). A path no route serves is a 404,
 * a refused upgrade (a bad key) is answered with its HTTP status and JSON body before the upgrade, never a 101.
 * `close()` ends the open sockets (1001, going away): node's server.close() does not wait for upgraded sockets.
 */
export function attachSocketRoutes(server: Server, routes: SocketRoute[], logger: UpgradeLogger): { close(): void } {
  // `ws` is loaded by the first accepted upgrade: a gateway nobody opens a socket to never holds it.
  let wss: WebSocketServer | undefined;
  const sockets = () => (wss ??= webSocketServer());
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const route = routes.find((r) => r.path === pathOf(req.url));
    if (!route)
      return refuse(socket, 404, {
        error: { message: 'No WebSocket route here.', type: 'not_found_error', param: '', code: 'route_not_found' },
      });
    route.accept(req).then(
      (accepted) => {
        if (!accepted.ok) return refuse(socket, accepted.status, accepted.body);
        sockets().handleUpgrade(req, socket, head, (ws) => accepted.serve(textSocket(ws)));
      },
      (e: unknown) => {
        logger.error('websocket upgrade failed', { error: (e as Error).message });
        refuse(socket, 500, { error: { message: 'The upgrade could not be served.', type: 'server_error', param: '', code: 'internal' } });
      },
    );
  });
  return {
    close() {
      if (!wss) return;
      for (const ws of wss.clients) ws.close(1001, 'server shutting down');
      wss.close();
    },
  };
}

function webSocketServer(): WebSocketServer {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy: see attachSocketRoutes
  const ws = require('ws') as typeof Ws;
  // No permessage-deflate: a compressed frame of a few KB would inflate to maxPayload, so a message's bytes in memory
  // are the bytes that travelled (clients fall back to plain frames when the server does not offer it).
  return new ws.WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false });
}

function pathOf(url: string | undefined): string {
  return (url ?? '/').split('?')[0]!.replace(/\/+$/, '');
}

function refuse(socket: Duplex, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
  );
}

function textSocket(ws: WebSocket): TextSocket {
  return {
    send: (text) =>
      new Promise<void>((resolve) => {
        if (ws.readyState !== ws.OPEN) return resolve();
        ws.send(text, () => resolve());
      }),
    onMessage: (listener) => ws.on('message', (data, isBinary) => listener(isBinary ? '' : String(data))),
    onClose: (listener) => ws.on('close', listener),
    close: (code, reason) => ws.close(code, reason),
    get open() {
      return ws.readyState === ws.OPEN;
    },
  };
}
