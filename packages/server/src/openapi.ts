import type { Request } from 'express';
import { openApiDocument, type RouteDoc } from '@gateway/http-kit';
import { version } from '../package.json';
import { selfServiceFormat } from '@gateway/wire-admin';
import { adminRoutes } from './admin/admin-routes';
import { ssoRoutes } from '@gateway/sso';
import { operationsRoutes, probeRoutes } from '@gateway/observability';
import { ERROR_SHAPES, WIRE_ROUTES } from './wire-formats';

/**
 * Every route the app serves, from the declarations that mount them: each wire format's, then the server's own.
 */
export const GATEWAY_ROUTE_DOCS: readonly RouteDoc[] = [
  ...WIRE_ROUTES,
  ...probeRoutes,
  ...operationsRoutes,
  ...adminRoutes,
  ...selfServiceFormat.routes,
  ...ssoRoutes,
];

/** The OpenAPI 3.1 document of the given routes (all of them by default). */
export function buildOpenApiDocument(opts: { publicBaseUrl: string; routes?: readonly RouteDoc[] }) {
  return openApiDocument(opts.routes ?? GATEWAY_ROUTE_DOCS, {
    title: 'Generation gateway',
    version,
    description: "One API key, many wire formats. Each route answers errors in its own format's shape; see docs/openapi.md.",
    publicBaseUrl: opts.publicBaseUrl,
    errorShapes: ERROR_SHAPES,
  });
}

/** The text of `GET /openapi.json`: built once per base URL (PUBLIC_BASE_URL may be set after start). */
export function openApiText(publicBaseUrl: (req: Request) => string): (req: Request) => string {
  let cached: { base: string; body: string } | undefined;
  return (req) => {
    const base = publicBaseUrl(req);
    if (cached?.base !== base) cached = { base, body: JSON.stringify(buildOpenApiDocument({ publicBaseUrl: base })) };
    return cached.body;
  };
}
