import { getJson } from './api';
import type { Pricing } from './prices';

export type Kind = 'text' | 'image' | 'video' | 'embedding' | 'speech' | 'transcription' | 'rerank' | 'moderation';

const NO_VERB_KINDS = ['speech', 'transcription', 'rerank', 'moderation'] as const;

/**
 * A model's kind from its entry in the Gemini-style list. The verbs tell video (a long-running operation), text
 * (streamed), embedding and image apart. Gemini has no verb for the other kinds, so the list's default description,
 * "<name> (<kind> model)", names them; a model whose operator wrote its own description is `other`, listed on Models
 * and offered by no Playground panel.
 */
export function kindOf(methods: string[], description: string | undefined): Kind | 'other' {
  if (methods.includes('predictLongRunning')) return 'video';
  if (methods.includes('streamGenerateContent')) return 'text';
  if (methods.includes('embedContent')) return 'embedding';
  if (methods.includes('generateContent')) return 'image';
  const named = /\((\w+) model\)$/.exec(description ?? '')?.[1];
  return NO_VERB_KINDS.find((k) => k === named) ?? 'other';
}

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
