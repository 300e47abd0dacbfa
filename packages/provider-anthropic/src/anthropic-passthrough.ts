import { nativeBody, nativeRequestFor, type TextRequest, type Warning } from '@gateway/provider-kit';
import { ANTHROPIC_FORMAT, convertToAnthropicRequest, type AnthropicRequestOptions } from './convert-to-anthropic-request';

/** Which of the client's `anthropic-beta` names reach the upstream: all (default), only `allow`, or all but `deny`. */
export type ClientBetaPolicy = { allow: string[] } | { deny: string[] } | undefined;

export interface AnthropicCallOptions extends AnthropicRequestOptions {
  /** the operator's own betas (option `betas`), always sent */
  betas?: string;
  clientBetas?: ClientBetaPolicy;
}

export interface AnthropicCall {
  body: Record<string, unknown>;
  headers: Record<string, string>;
  warnings: Warning[];
}

function betaNames(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
}

/** The `anthropic-beta` value: the operator's betas, then the client's that the policy lets through, each once. */
export function anthropicBetaHeader(
  operator: string | undefined,
  client: string | undefined,
  policy: ClientBetaPolicy,
): string | undefined {
  const passes = (b: string) => (!policy ? true : 'allow' in policy ? policy.allow.includes(b) : !policy.deny.includes(b));
  const names = [...new Set([...betaNames(operator), ...betaNames(client).filter(passes)])];
  return names.length ? names.join(',') : undefined;
}

/**
 * The upstream call for a canonical request. A request written in the Messages dialect is sent as the client wrote
 * it (its model replaced by the deployment's, `stream` set by the call), with its `anthropic-beta` names under the
 * provider's policy: nothing the canonical model lacks is lost. Any other request is converted.
 */
export function anthropicCall(req: TextRequest, opts: AnthropicCallOptions, stream: boolean): AnthropicCall {
  const native = nativeRequestFor(req, ANTHROPIC_FORMAT);
  const beta = anthropicBetaHeader(opts.betas, native?.headers?.['anthropic-beta'], opts.clientBetas);
  const headers: Record<string, string> = beta ? { 'anthropic-beta': beta } : {};
  if (native) return { body: nativeBody(native, { model: req.model, stream: stream ? true : undefined }), headers, warnings: [] };
  return { ...convertToAnthropicRequest(req, opts, stream), headers };
}
