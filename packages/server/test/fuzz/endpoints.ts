import type { RouteDoc } from '@gateway/http-kit';
import { GATEWAY_ROUTE_DOCS } from '../../src/openapi';
import { SAMPLES } from './endpoint-samples';

/**
 * Every endpoint the bad-input suite drives, with the error shape its format promises. The list derives from the
 * route docs of the wire formats' descriptors (and the server's own): a new format's routes are driven as soon as
 * it is registered; SAMPLES only adds what makes a request valid.
 */
export type ErrorShape = 'openai' | 'anthropic' | 'google' | 'code-message' | 'cohere' | 'mcp';

export interface Endpoint {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** a path; every `{id}` is replaced by a generated id, `{model}` by a generated model name */
  path: string;
  /** the documented route it drives (`<method> <path>` as in GATEWAY_ROUTE_DOCS); the suite checks none is missing */
  route: string;
  shape: ErrorShape;
  /** `admin`: the operator key of /admin and /metrics; `none`: no key at all */
  auth?: 'key' | 'admin' | 'none';
  headers?: Record<string, string>;
  /** a valid body, mutated by the generators */
  valid?: Record<string, unknown>;
  /** creates something: a refused request must leave no trace */
  creates?: 'task' | 'response' | 'config';
}

export { ADMIN_KEY, TINY_PNG_BASE64 } from './endpoint-samples';

/** Documented routes that take no input worth generating: fixed probes and the document itself. */
export const NOT_FUZZED = ['get /healthz', 'get /readyz', 'get /openapi.json'];

const routeOf = (d: RouteDoc) => `${d.method} ${d.path}`;

/** The documented path with `{id}` for every identifier (`{model}` stays) and `{id}` for each query parameter. */
function fuzzPath(d: RouteDoc): string {
  const p = d.path.replace(/\{(?!model\})[^}]+\}/g, '{id}');
  const query = (d.params ?? []).filter((x) => x.in === 'query').map((x) => `${x.name}={id}`);
  return query.length ? `${p}?${query.join('&')}` : p;
}

function fromDoc(d: RouteDoc): Omit<Endpoint, 'name'> {
  return {
    method: d.method.toUpperCase() as Endpoint['method'],
    path: fuzzPath(d),
    route: routeOf(d),
    shape: [d.errors].flat()[0] as ErrorShape,
    auth: d.auth.kind === 'none' ? 'none' : d.auth.kind === 'admin-key' ? 'admin' : 'key',
  };
}

const stale = SAMPLES.filter((s) => !GATEWAY_ROUTE_DOCS.some((d) => routeOf(d) === s.route)).map((s) => s.name);
if (stale.length) throw new Error(`Fuzz samples for undocumented routes: ${stale.join(', ')}`);

export const ENDPOINTS: Endpoint[] = GATEWAY_ROUTE_DOCS.filter((d) => !NOT_FUZZED.includes(routeOf(d))).flatMap((d) => {
  const samples = SAMPLES.filter((s) => s.route === routeOf(d));
  return (samples.length ? samples : [{ name: routeOf(d), route: routeOf(d) }]).map((s) => ({ ...fromDoc(d), ...s }));
});

/** Checks a body against the format's promised error shape; returns a problem or null. */
export function errorShapeProblem(shape: ErrorShape, body: unknown): string | null {
  const b = body as Record<string, any>;
  const strings = (o: Record<string, unknown>, keys: string[]) => keys.every((k) => typeof o?.[k] === 'string');
  switch (shape) {
    case 'openai':
      return b?.error && strings(b.error, ['message', 'type', 'param', 'code'])
        ? null
        : 'not {error:{message,type,param,code}} with strings';
    case 'anthropic':
      return b?.type === 'error' && b.error && strings(b.error, ['type', 'message']) ? null : 'not {type:"error", error:{type,message}}';
    case 'google':
      return b?.error && typeof b.error.code === 'number' && strings(b.error, ['message', 'status'])
        ? null
        : 'not {error:{code,message,status}}';
    case 'code-message':
      return b && strings(b, ['code', 'message']) ? null : 'not {code,message}';
    case 'cohere':
      return b && strings(b, ['message']) && Object.keys(b).length === 1 ? null : 'not {message}';
    case 'mcp':
      return b?.jsonrpc === '2.0' && typeof b.error?.code === 'number' && typeof b.error.message === 'string'
        ? null
        : 'not a JSON-RPC error {jsonrpc:"2.0", error:{code,message}}';
  }
}
