import { getJson } from './api';
import { kindOf, type Kind } from './model-kind';
import type { Pricing } from './prices';

export interface PublicModel {
  id: string;
  kind: Kind | 'other';
  displayName: string;
  inputTokenLimit: number;
  outputTokenLimit: number;
}

/**
 * The models an API key may use, with their kind. The Gemini-style list (GET /v1beta/models) is the public list that
 * says what each model does (kindOf).
 */
export async function publicModels(key: string): Promise<PublicModel[]> {
  const out: PublicModel[] = [];
  let token: string | undefined;
  do {
    const page = await getJson<{
      models: Array<{
        name: string;
        displayName: string;
        description?: string;
        inputTokenLimit: number;
        outputTokenLimit: number;
        supportedGenerationMethods: string[];
      }>;
      nextPageToken?: string;
    }>(key, `/v1beta/models?pageSize=1000${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`);
    for (const m of page.models) {
      out.push({
        id: m.name.replace(/^models\//, ''),
        kind: kindOf(m.supportedGenerationMethods, m.description),
        displayName: m.displayName,
        inputTokenLimit: m.inputTokenLimit,
        outputTokenLimit: m.outputTokenLimit,
      });
    }
    token = page.nextPageToken;
  } while (token);
  return out;
}

/** A catalogue entry as GET /admin/models shows it (secrets are never in it). */
export interface CatalogueModel {
  id: string;
  kind: Kind;
  provider?: string;
  upstreamModel?: string;
  deployments?: Array<{ provider: string; upstreamModel?: string; priority?: number; weight?: number }>;
  pricing?: Pricing;
  aliases?: string[];
  source?: string;
  [capability: string]: unknown;
}

export const deploymentsOf = (m: CatalogueModel) =>
  m.deployments ?? (m.provider ? [{ provider: m.provider, upstreamModel: m.upstreamModel }] : []);
