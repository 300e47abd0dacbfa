import type { AddressInfo } from 'node:net';
import { adminApiAt, newLocalAdminToken, type AdminApi } from '@gateway/cli';
import { mountRoutes } from '@gateway/http-kit';
import { adminKeyGate, type AdminCacheDeps, type AdminDeps } from '@gateway/wire-admin';
import { createHttpApp } from '../app';
import { errorShapeNamed } from '../wire-formats';
import { cliAdminRoutes } from './admin-routes';

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
