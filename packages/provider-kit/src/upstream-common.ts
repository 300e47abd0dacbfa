import axios, { type AxiosInstance, type AxiosResponse, type CreateAxiosDefaults } from 'axios';
import type { GatewayError } from '@gateway/core';
import { mapUpstreamStatus, type UpstreamFailure } from './upstream-errors';
import type { KeepAliveAgents } from './keep-alive-agents';
import type { UpstreamResponse } from './upstream-transport';
import { redactError } from './redacting-ports';
import { createRedactor } from './secret-redactor';

/** What both upstream clients (UpstreamTransport, UpstreamHttp) do alike, once. */

const ERROR_BODY_LIMIT = 64 * 1024;

export function flatHeaders(h: AxiosResponse['headers']): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(h ?? {})) {
    if (v === undefined || v === null) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

/** A non-2xx answer → GatewayError through the provider's describeFailure (or the kit's status table). */
export async function describeUpstreamFailure(r: UpstreamResponse, describe?: (f: UpstreamFailure) => GatewayError): Promise<GatewayError> {
  let bodyText = '';
  try {
    bodyText = await r.text(ERROR_BODY_LIMIT);
  } catch {
    r.close();
  }
  let json: unknown;
  try {
    json = bodyText ? JSON.parse(bodyText) : undefined;
  } catch {
    json = undefined;
  }
  const f: UpstreamFailure = { status: r.status, headers: r.headers, bodyText, json, requestId: r.requestId };
  return describe ? describe(f) : mapUpstreamStatus(f, {});
}

/** Keys never travel in a message, even when an upstream quotes them back (a first pass; the registry's ports redact again). */
export function redactSecrets(e: GatewayError, secrets: string[] = []): GatewayError {
  return redactError(e, createRedactor(secrets)) as GatewayError;
}

/** The axios instance of every upstream client: no redirects, bodies as streams, every status handed back. */
export function createUpstreamAxios(agents: KeepAliveAgents, extra: CreateAxiosDefaults = {}): AxiosInstance {
  return axios.create({
    adapter: 'http',
    maxRedirects: 0,
    responseType: 'stream',
    validateStatus: () => true,
    decompress: true,
    proxy: false,
    maxContentLength: -1,
    maxBodyLength: -1,
    httpAgent: agents.httpAgent,
    httpsAgent: agents.httpsAgent,
    ...extra,
  });
}
