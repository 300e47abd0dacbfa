import type { AddressInfo } from 'node:net';
import { GatewayError, type ErrorReason } from '@gateway/core';
import { mountRoutes } from '@gateway/http-kit';
import { adminKeyGate, type AdminCacheDeps, type AdminDeps } from '@gateway/wire-admin';
import { createHttpApp } from '../app';
import type { AdminApi } from '../cli-commands';
import { errorShapeNamed } from '../wire-formats';
import { cliAdminRoutes } from './admin-routes';
import { newLocalAdminToken } from './local-credential';

const REASONS: Record<number, ErrorReason> = { 400: 'invalid_request', 401: 'unauthenticated', 403: 'permission_denied', 404: 'not_found' };

/** The admin API at `url`, opened with a local token; an error answer is thrown as the GatewayError it renders. */
export function adminApiAt(target: { url: string; token: string; pid?: number }): AdminApi {
  return async ({ method, path, body }) => {
    const res = await fetch(`${target.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${target.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).catch((e: Error) => {
      // e.g. the gateway is stopping: say which one it was
      throw new Error(`The gateway (process ${target.pid ?? process.pid}) did not answer at ${target.url}: ${e.message}`);
    });
    const json = (await res.json().catch(() => ({}))) as Record<string, any>;
    if (!res.ok) {
      const message = typeof json.error?.message === 'string' ? json.error.message : `The gateway answered ${res.status}.`;
      throw new GatewayError(REASONS[res.status] ?? 'internal', message, { code: json.error?.code });
    }
    return json;
  };
}

/**
 * The admin API the CLI calls, served by this process on an ephemeral loopback port over its own stores, when no
 * gateway holds the store: the CLI then speaks one API whoever serves it, and its changes are checked and audited
 * as the gateway's are (the author is the CLI, as the local token says).
 */
export async function serveAdminLocally(deps: AdminDeps & AdminCacheDeps): Promise<{ api: AdminApi; close(): Promise<void> }> {
  const token = newLocalAdminToken();
  const routes = mountRoutes(cliAdminRoutes, deps, { admin: adminKeyGate(undefined, token), errorShape: errorShapeNamed });
  const app = createHttpApp({ routers: [routes], ready: async () => ({ ready: true, checks: {} }) });
  const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    api: adminApiAt({ url, token }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // the client's kept-alive connection would hold the close for seconds
        server.closeAllConnections();
      }),
  };
}
