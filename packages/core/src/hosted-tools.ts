/**
 * Hosted tools: tools the provider runs itself (OpenAI web_search, Anthropic web_search_*, Gemini googleSearch...).
 * A wire adapter keeps each one as declared, tagged with its format; this rule decides what an
 * upstream gets: an upstream that runs that format's hosted tools receives them unchanged; for any other, the
 * provider's policy drops them (named in x-gateway-warnings) or refuses the request naming the tool.
 */
import { invalid } from './errors';
import type { TextRequest } from './text';
import { droppedContent, type Warning } from './warnings';

export interface HostedTool {
  /** the inbound format whose tool this is (e.g. `openai-responses`) */
  format: string;
  /** the tool's type as the client named it (`web_search`, `web_search_20250305`, `googleSearch`) */
  type: string;
  /** where it sat in the request, for a refusal (`tools[2]`) */
  param: string;
  /** the tool entry exactly as the client sent it */
  definition: Record<string, unknown>;
}

export type HostedToolsPolicy = 'drop' | 'refuse';
export const HOSTED_TOOLS_POLICIES: readonly HostedToolsPolicy[] = ['drop', 'refuse'];
export const DEFAULT_HOSTED_TOOLS_POLICY: HostedToolsPolicy = 'drop';

/**
 * The request as one upstream gets it. `nativeFormats`: the formats whose hosted tools the upstream runs.
 * Tool types come from each format's fixed list of hosted types, so echoing them is safe.
 */
export function hostedToolsFor(
  request: TextRequest,
  nativeFormats: readonly string[] | undefined,
  policy: HostedToolsPolicy,
): { request: TextRequest; warnings: Warning[] } {
  const tools = request.hostedTools;
  if (!tools?.length) return { request, warnings: [] };
  const kept = tools.filter((t) => nativeFormats?.includes(t.format));
  const missing = tools.filter((t) => !kept.includes(t));
  const t = missing[0];
  if (!t) return { request, warnings: [] };
  if (policy === 'refuse') {
    throw invalid(
      'unsupported_hosted_tool',
      `Hosted tool ${JSON.stringify(t.type)} is not available on this model's upstream; remove it from the request's tools.`,
      t.param,
    );
  }
  return {
    request: { ...request, hostedTools: kept.length ? kept : undefined },
    warnings: missing.map((t) => droppedContent(t.type, 'hosted tool dropped: not available on this upstream')),
  };
}
