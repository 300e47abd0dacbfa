/**
 * Passthrough on a shared upstream account: some body fields name a resource that lives in the gateway's upstream
 * account (an Anthropic code-execution `container` or the `mcp_servers` it connects, a Gemini `cachedContent`, an
 * OpenAI stored `conversation` or `prompt`). A caller naming one would use, or read, what another tenant made under
 * the same account. One rule decides, per provider entry (`accountResources`): `refuse` (the default: a 400 in the
 * caller's format naming the field), `drop` (left out, named in x-gateway-warnings), or `allow` (sent as written,
 * for an upstream account that is the caller's own).
 */
import { invalid } from './errors';
import type { TextRequest } from './text';
import { droppedContent, type Warning } from './warnings';

export type AccountResourcesPolicy = 'refuse' | 'drop' | 'allow';
export const ACCOUNT_RESOURCES_POLICIES: readonly AccountResourcesPolicy[] = ['refuse', 'drop', 'allow'];
export const DEFAULT_ACCOUNT_RESOURCES_POLICY: AccountResourcesPolicy = 'refuse';

/** The top-level body fields of each dialect that name an upstream-account resource. */
export const ACCOUNT_RESOURCE_FIELDS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  'anthropic-messages': ['container', 'mcp_servers'],
  'gemini-content': ['cachedContent'],
  'openai-responses': ['conversation', 'prompt'],
});

const without = (o: Readonly<Record<string, unknown>>, fields: readonly string[]) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !fields.includes(k)));

/** The request as one upstream gets it under its provider's policy. */
export function accountResourcesFor(request: TextRequest, policy: AccountResourcesPolicy): { request: TextRequest; warnings: Warning[] } {
  const native = request.native;
  if (policy === 'allow' || !native) return { request, warnings: [] };
  const names = ACCOUNT_RESOURCE_FIELDS[native.dialect] ?? [];
  const present = names.filter((f) => native.body[f] !== undefined && native.body[f] !== null);
  if (!present.length) return { request, warnings: [] };
  if (policy === 'refuse')
    throw invalid(
      'upstream_account_resource',
      `"${present[0]}" names a resource of the gateway's upstream account, which this gateway does not let callers use; remove it from the request.`,
      present[0],
    );
  return {
    request: { ...request, native: { ...native, body: without(native.body, present) } },
    warnings: present.map((f) => droppedContent(f, 'names a resource of the upstream account: dropped')),
  };
}
