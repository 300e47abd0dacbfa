import { GatewayError, type ErrorReason } from '@gateway/core';
import type { AdminApi } from './admin-commands';

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
