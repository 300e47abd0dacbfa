import { GatewayError, type BatchEndpoints, type DelegatedKeys, type LineDispatch } from '@gateway/core';
import type { RequestListener } from 'node:http';
import { LoopbackCalls } from './loopback-calls';
import { checkBody, type RequestBody } from './request-body';
import type { Route } from './route';

/**
 * The routes that take batch lines, as their formats declare them (`batch`): the endpoints a batch may name, and
 * each line's body checked by its route's own declared body (the very check a client's request gets).
 */
export function batchLineRoutes(routes: ReadonlyArray<Route<never>>) {
  const batchable = routes.filter((r) => r.batch && r.method === 'post');
  return {
    endpoints: Object.fromEntries(batchable.map((r) => [r.path, { format: r.batch!.format, kind: r.batch!.kind }])) as BatchEndpoints,
    /** the headers a line of this endpoint is sent with besides the key */
    headersOf: (endpoint: string) => batchable.find((r) => r.path === endpoint)?.batch?.headers ?? {},
    async checkBody(endpoint: string, body: Record<string, unknown>): Promise<string | null> {
      const declared = batchable.find((r) => r.path === endpoint)?.body as RequestBody<unknown> | undefined;
      if (!declared?.check) return null;
      try {
        await checkBody(declared, body);
        return null;
      } catch (e) {
        // a check that needs what only a live request has (a stored conversation) is left to the line's own call
        return e instanceof GatewayError ? e.message : null;
      }
    },
  };
}

/**
 * Where a line is sent: a path parameter of its endpoint (Gemini's `/v1beta/models/{model}:generateContent`) takes
 * the line's body field of that name, which then leaves the body (the path names the model, the body does not).
 */
function linePath(endpoint: string, body: Record<string, unknown>): { path: string; body: Record<string, unknown> } {
  const rest = { ...body };
  const path = endpoint.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  return { path, body: rest };
}

/**
 * Sends each batch line through the gateway's own route (a private loopback server of the same app) as the key that
 * created the batch, with a delegated credential that exists only in this process for that one call.
 */
export function loopbackLineDispatch(
  app: () => RequestListener,
  delegated: DelegatedKeys,
  headersOf: (endpoint: string) => Readonly<Record<string, string>>,
): LineDispatch & { close(): Promise<void> } {
  const loopback = new LoopbackCalls(app);
  return {
    async send(line, signal) {
      const token = delegated.issue(line.keyId, line.batchId);
      try {
        const { path, body } = linePath(line.endpoint, line.body);
        return await loopback.post(path, token, body, signal, headersOf(line.endpoint));
      } finally {
        delegated.release(token);
      }
    },
    close: () => loopback.close(),
  };
}
