import { ERROR_REASONS, GatewayError, type ErrorReason, type GatewayErrorOptions } from '@gateway/core';
import type { JsonSchemaObject, ProviderEntry, ProviderEnvironment, ProviderPorts } from './provider-descriptor';
import { parseSse, type SseEvent } from './sse-parser';
import { malformedUpstream, mapUpstreamStatus } from './upstream-errors';

/**
 * The contract an adapter loaded from outside the repository implements (docs/providers/writing-an-adapter.md).
 * Semantic versioning, history in ADAPTER-CONTRACT-CHANGELOG.md: a module declaring 1.x loads on a gateway of
 * 1.y when x ≤ y; another major never loads.
 */
export const ADAPTER_CONTRACT_VERSION = '1.0.0';

/**
 * What an outside module's default export is: the built-ins' descriptor (`optionsSchema`, `create`) without the
 * built-in `type` name (the config entry's `id` names it), plus the contract version it was written against. Its key
 * is the entry's `apiKey`, as for a built-in: the one field the store seals, the admin API never shows and every
 * answer is redacted of; options hold no secrets.
 */
export interface AdapterDescriptor {
  readonly contractVersion: string;
  /** shown in logs and traces instead of a built-in type; defaults to the module's file name */
  readonly name?: string;
  readonly optionsSchema: JsonSchemaObject;
  create(entry: ProviderEntry, env: AdapterEnvironment): ProviderPorts;
}

/** The second argument of `create`: the gateway's environment plus the helpers, so a module needs no install. */
export interface AdapterEnvironment extends ProviderEnvironment {
  readonly kit: AdapterKit;
}

export interface AdapterKit {
  readonly contractVersion: string;
  /** the closed set of failure reasons (their HTTP status and whether a retry may help) */
  readonly reasons: typeof ERROR_REASONS;
  /** a failure with a reason from the closed table */
  error(reason: ErrorReason, message: string, details?: GatewayErrorOptions): GatewayError;
  /** a non-2xx upstream answer mapped through the built-ins' one status table (401/403 never repeat the upstream's text) */
  statusError(status: number, message?: string, details?: { retryAfter?: string | null; requestId?: string; code?: string }): GatewayError;
  /** a 2xx answer the adapter cannot read: upstream_malformed_response */
  malformed(what: string): GatewayError;
  /** server-sent events of a response body (fetch's `response.body`) */
  parseSse(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent>;
  /** newline-delimited JSON of a response body; a line that is not JSON is upstream_malformed_response */
  parseNdjson(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<unknown>;
}

async function* parseNdjson(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<unknown> {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  const parse = (line: string): unknown => {
    try {
      return JSON.parse(line);
    } catch {
      throw malformedUpstream('a stream line that is not JSON');
    }
  };
  for await (const chunk of body) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line) yield parse(line);
    }
  }
  if (buffer.trim()) yield parse(buffer.trim());
}

export const ADAPTER_KIT: AdapterKit = Object.freeze({
  contractVersion: ADAPTER_CONTRACT_VERSION,
  reasons: ERROR_REASONS,
  error: (reason: ErrorReason, message: string, details?: GatewayErrorOptions) => new GatewayError(reason, message, details),
  statusError: (status: number, message?: string, details: { retryAfter?: string | null; requestId?: string; code?: string } = {}) =>
    mapUpstreamStatus(
      { status, headers: { 'retry-after': details.retryAfter ?? undefined }, bodyText: '', requestId: details.requestId },
      { message, code: details.code },
    ),
  malformed: malformedUpstream,
  parseSse,
  parseNdjson,
});

/** `1.2.3` → [1, 2, 3]; undefined when it is not a semantic version. */
function semver(v: unknown): [number, number, number] | undefined {
  const m = typeof v === 'string' ? /^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(v) : null;
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** Why a module's declared contract version cannot run on this gateway; undefined when it can. */
export function contractVersionProblem(declared: unknown): string | undefined {
  const ours = semver(ADAPTER_CONTRACT_VERSION)!;
  const theirs = semver(declared);
  if (!theirs) return `contractVersion must be a semantic version such as "${ADAPTER_CONTRACT_VERSION}" (got ${JSON.stringify(declared)})`;
  if (theirs[0] !== ours[0] || theirs[1] > ours[1])
    return `written for adapter contract ${String(declared)}; this gateway speaks ${ADAPTER_CONTRACT_VERSION} (same major, minor up to ${ours[1]})`;
  return undefined;
}
