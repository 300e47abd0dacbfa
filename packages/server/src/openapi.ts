import type { Request } from 'express';
import { ERROR_REASONS } from '@gateway/core';
import type { ParamDoc, RouteAuth, RouteDoc } from '@gateway/http-kit';
import { version } from '../package.json';
import { selfServiceRoutes } from '@gateway/wire-admin';
import { adminRoutes } from './admin/admin-routes';
import { ssoRoutes } from '@gateway/sso';
import { operationsRoutes, probeRoutes } from './wiring/operations.router';
import { ERROR_SHAPES, WIRE_ROUTES } from './wire-formats';

/**
 * Every route the app serves, from the declarations that mount them: each wire format's, then the server's own.
 */
export const GATEWAY_ROUTE_DOCS: readonly RouteDoc[] = [
  ...WIRE_ROUTES,
  ...probeRoutes,
  ...operationsRoutes,
  ...adminRoutes,
  ...selfServiceRoutes,
  ...ssoRoutes,
];

/** Statuses and the reasons behind them, from the core's one table. */
function statusList(from: number, to: number): string {
  const byStatus = new Map<number, string[]>();
  for (const [reason, info] of Object.entries(ERROR_REASONS)) {
    if (info.status >= from && info.status < to) byStatus.set(info.status, [...(byStatus.get(info.status) ?? []), reason]);
  }
  return [...byStatus]
    .sort(([a], [b]) => a - b)
    .map(([s, reasons]) => `${s} (${reasons.join(', ')})`)
    .join('; ');
}

const ERROR_RANGES = [
  { key: '4XX', text: `The caller's mistake, in this route's error shape: ${statusList(400, 500)}; 416 for an unsatisfiable byte range.` },
  { key: '5XX', text: `The gateway's or an upstream's failure, in this route's error shape: ${statusList(500, 600)}.` },
];

const bearerScheme = 'bearerKey';
const adminScheme = 'adminKey';
const sessionScheme = 'dashboardSession';

function security(auth: RouteAuth): Array<Record<string, string[]>> {
  if (auth.kind === 'none') return [];
  if (auth.kind === 'admin-key') return auth.optional ? [{ [adminScheme]: [] }, {}] : [{ [adminScheme]: [] }];
  const session = auth.session ? [{ [sessionScheme]: [] }] : [];
  return [{ [bearerScheme]: [] }, ...(auth.alternativeHeaders ?? []).map((h) => ({ [h]: [] })), ...session];
}

function securitySchemes(routes: readonly RouteDoc[]) {
  const schemes: Record<string, object> = {
    [bearerScheme]: { type: 'http', scheme: 'bearer', description: '`Authorization: Bearer sk-…`: accepted on every keyed route.' },
    [adminScheme]: { type: 'http', scheme: 'bearer', description: 'GATEWAY_ADMIN_KEY as a bearer token.' },
    [sessionScheme]: {
      type: 'apiKey',
      in: 'cookie',
      name: 'gw_session',
      description: 'A dashboard single sign-on session (docs/admin.md); a state-changing call also sends its `X-CSRF-Token`.',
    },
  };
  for (const r of routes) {
    for (const h of r.auth.kind === 'api-key' ? (r.auth.alternativeHeaders ?? []) : []) {
      schemes[h] = { type: 'apiKey', in: 'header', name: h, description: `The API key in \`${h}\`, as the format's SDK sends it.` };
    }
  }
  return schemes;
}

/** Path parameters come from the template; a description in `params` wins. */
function parameters(r: RouteDoc) {
  const declared = r.params ?? [];
  const fromPath = [...r.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const pathParams: ParamDoc[] = fromPath.map(
    (name) => declared.find((p) => p.in === 'path' && p.name === name) ?? { name, in: 'path', description: name },
  );
  return [...pathParams, ...declared.filter((p) => p.in !== 'path')].map((p) => ({
    name: p.name,
    in: p.in,
    description: p.description,
    required: p.in === 'path' ? true : (p.required ?? false),
    schema: p.schema ?? { type: 'string' },
  }));
}

const media = (content: Readonly<Record<string, object>>) =>
  Object.fromEntries(Object.entries(content).map(([type, schema]) => [type, { schema }]));

function errorContent(shapes: string | readonly string[]) {
  const refs = [shapes].flat().map((name) => {
    const shape = ERROR_SHAPES.get(name);
    if (!shape) throw new Error(`A route names the unknown error shape ${name}`);
    return { $ref: `#/components/schemas/${shape.schemaName}` };
  });
  return { 'application/json': { schema: refs.length === 1 ? refs[0] : { oneOf: refs } } };
}

function operation(r: RouteDoc) {
  const responses: Record<string, object> = {
    [String(r.response.status ?? 200)]: { description: r.response.description, content: media(r.response.content) },
  };
  if (r.errors) for (const range of ERROR_RANGES) responses[range.key] = { description: range.text, content: errorContent(r.errors) };
  const description = [r.description, r.auth.kind === 'none' ? `No key: ${r.auth.why}` : undefined].filter(Boolean).join('\n\n');
  return {
    operationId: `${r.method}${r.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: r.summary,
    ...(description ? { description } : {}),
    tags: [r.format],
    security: security(r.auth),
    parameters: parameters(r),
    ...(r.body ? { requestBody: { required: r.body.required ?? true, content: media(r.body.content) } } : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of the given routes (all of them by default). */
export function buildOpenApiDocument(opts: { publicBaseUrl: string; routes?: readonly RouteDoc[] }) {
  const routes = opts.routes ?? GATEWAY_ROUTE_DOCS;
  const paths: Record<string, Record<string, object>> = {};
  for (const r of routes) {
    if (paths[r.path]?.[r.method]) throw new Error(`Route documented twice: ${r.method.toUpperCase()} ${r.path}`);
    (paths[r.path] ??= {})[r.method] = operation(r);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Generation gateway',
      version,
      description: "One API key, many wire formats. Each route answers errors in its own format's shape; see docs/openapi.md.",
    },
    servers: [{ url: opts.publicBaseUrl }],
    tags: [...new Set(routes.map((r) => r.format))].map((name) => ({ name })),
    paths,
    components: {
      schemas: Object.fromEntries([...ERROR_SHAPES.values()].map((shape) => [shape.schemaName, shape.schema])),
      securitySchemes: securitySchemes(routes),
    },
  };
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
