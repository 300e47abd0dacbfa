import { ERROR_REASONS } from '@gateway/core';
import type { ErrorShape } from './error-shape';
import type { ParamDoc, RouteAuth, RouteDoc } from './route-doc';

/** What the document says of the API as a whole, beside its routes. */
export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
  publicBaseUrl: string;
  /** every error shape a route may name in `errors`, by name */
  errorShapes: ReadonlyMap<string, ErrorShape>;
}

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

function errorContent(shapes: string | readonly string[], errorShapes: ReadonlyMap<string, ErrorShape>) {
  const refs = [shapes].flat().map((name) => {
    const shape = errorShapes.get(name);
    if (!shape) throw new Error(`A route names the unknown error shape ${name}`);
    return { $ref: `#/components/schemas/${shape.schemaName}` };
  });
  return { 'application/json': { schema: refs.length === 1 ? refs[0] : { oneOf: refs } } };
}

function operation(r: RouteDoc, errorShapes: ReadonlyMap<string, ErrorShape>) {
  const responses: Record<string, object> = {
    [String(r.response.status ?? 200)]: { description: r.response.description, content: media(r.response.content) },
  };
  if (r.errors)
    for (const range of ERROR_RANGES) responses[range.key] = { description: range.text, content: errorContent(r.errors, errorShapes) };
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

/** The OpenAPI 3.1 document of the given routes, built from their declarations. */
export function openApiDocument(routes: readonly RouteDoc[], info: OpenApiInfo) {
  const paths: Record<string, Record<string, object>> = {};
  for (const r of routes) {
    if (paths[r.path]?.[r.method]) throw new Error(`Route documented twice: ${r.method.toUpperCase()} ${r.path}`);
    (paths[r.path] ??= {})[r.method] = operation(r, info.errorShapes);
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description },
    servers: [{ url: info.publicBaseUrl }],
    tags: [...new Set(routes.map((r) => r.format))].map((name) => ({ name })),
    paths,
    components: {
      schemas: Object.fromEntries([...info.errorShapes.values()].map((shape) => [shape.schemaName, shape.schema])),
      securitySchemes: securitySchemes(routes),
    },
  };
}
