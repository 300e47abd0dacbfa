import type { Express } from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTimedServer, type StreamShutdown } from '@gateway/http-kit';
import { attachSocketRoutes, responsesSocket } from '@gateway/wire-openai-responses';
import type { GatewayEnv } from './gateway-env';
import type { Logger } from '@gateway/observability';
import { StartupError } from './startup-checks';
import type { WiringContext } from './wiring/context';

export interface GatewayLifecycle {
  listen(port?: number, host?: string): Promise<Server>;
  close(): Promise<void>;
}

/** Listening (HTTP and the Responses WebSocket) and the graceful close. */
export function gatewayLifecycle(
  app: Express,
  env: GatewayEnv,
  logger: Logger,
  auth: WiringContext['authenticate'],
  streamShutdown: StreamShutdown,
  closeTheRest: () => Promise<void>,
): GatewayLifecycle {
  const servers: Server[] = [];
  const sockets: Array<{ close(): void }> = [];
  return {
    listen(port = env.port, host = env.host) {
      return new Promise((resolve, reject) => {
        const server = createTimedServer(app, env.listenTimeouts);
        // the Responses API's WebSocket mode (Codex): each response runs through the HTTP route on this listener
        const responses = responsesSocket({
          authenticate: auth,
          maxPerKey: env.responsesSocketsPerKey,
          origin: () => loopbackOrigin(server),
        });
        sockets.push(attachSocketRoutes(server, [responses], logger));
        server.once('error', (e: NodeJS.ErrnoException) => reject(listenError(e, port, host)));
        server.listen(port, host, () => {
          servers.push(server);
          resolve(server);
        });
      });
    },
    /**
     * Graceful: stop accepting, let in-flight requests and streams finish up to the grace deadline, then end the
     * open streams with their format's error event (server_shutting_down) and cut what is left; stop background
     * work (the worker releases its claims); flush the usage log; close the store.
     */
    async close() {
      const grace = env.shutdownGraceMs ?? 10000;
      for (const s of sockets) s.close();
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              const timer = setTimeout(() => void streamShutdown.fire().then(() => s.closeAllConnections()), grace);
              timer.unref();
              s.close(() => {
                clearTimeout(timer);
                resolve();
              });
              s.closeIdleConnections();
            }),
        ),
      );
      await closeTheRest();
    },
  };
}

/** A listen that failed for a reason the operator can fix, named as a start-up failure. */
function listenError(e: NodeJS.ErrnoException, port: number, host: string): Error {
  if (e.code === 'EADDRINUSE')
    return new StartupError(`Port ${port} on ${host} is already in use: stop what holds it or set PORT.`, 'port_in_use');
  if (e.code === 'EACCES')
    return new StartupError(`Port ${port} on ${host} needs privileges this process lacks: use a port above 1023.`, 'port_denied');
  return e;
}

/** The origin of a listening server as seen from itself: a wildcard address is reached on loopback. */
function loopbackOrigin(server: Server): string {
  const { address, family, port } = server.address() as AddressInfo;
  const ipv6 = family === 'IPv6' || String(family) === '6';
  const host = address === '0.0.0.0' ? '127.0.0.1' : address === '::' ? '::1' : address;
  return ipv6 || host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}
