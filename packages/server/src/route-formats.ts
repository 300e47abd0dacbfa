import type { RouteDoc } from '@gateway/http-kit';

/** The label of an answer no route claimed: an unknown path, a 404 before routing. */
export const NO_FORMAT = 'none';

const escape = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/**
 * Which format a request's route belongs to, from the route docs (the same list the OpenAPI document is made of), so
 * an answer that recorded no usage row (a 401, a 429, a 400 before the use case) still counts under its format.
 */
export function routeFormats(docs: readonly RouteDoc[]): (method: string, path: string) => string {
  const routes = docs.map((d) => ({
    method: d.method,
    format: d.format,
    // `{param}` is one path segment; the rest (a `:verb` included) is literal
    pattern: new RegExp(
      `^${d.path
        .split(/\{[^}]+\}/)
        .map(escape)
        .join('[^/]+')}/?$`,
    ),
  }));
  return (method, path) => {
    const m = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    return routes.find((r) => r.method === m && r.pattern.test(path))?.format ?? NO_FORMAT;
  };
}
