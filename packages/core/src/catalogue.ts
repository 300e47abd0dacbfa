/** Model capabilities as data. */
import { ModelAliasIndex } from './model-aliases';

/** What a model does: each kind has its own routes, port and use case. `transcription` also serves translations. */
export type ModelKind = 'text' | 'image' | 'video' | 'embedding' | 'speech' | 'transcription' | 'rerank' | 'moderation';

/** Every kind, in the order lists and schemas show them. */
export const MODEL_KINDS: readonly ModelKind[] = ['text', 'image', 'video', 'embedding', 'speech', 'transcription', 'rerank', 'moderation'];
export type VideoFamily = '2.5' | '2.0';
export type VideoTier = 'standard' | 'fast' | 'mini';

export interface Deployment {
  provider: string;
  /** the name sent upstream; defaults to the model id */
  upstreamModel: string;
  /** lower is tried first */
  priority: number;
  weight: number;
}

export interface ImageCapabilities {
  sizes: string[];
  qualities: string[];
  outputFormats: string[];
  styles: string[];
  backgrounds: string[];
  stream: boolean;
  maxPartialImages: number;
  edits: boolean;
  /** longest prompt accepted, in characters */
  maxPromptChars?: number;
}

/**
 * What an image model can do when its config gives no `image` block (or only part of one): the one
 * place these defaults live. Conservative: common sizes, every output format, no streaming.
 */
export const DEFAULT_IMAGE_CAPABILITIES: Readonly<Required<ImageCapabilities>> = Object.freeze({
  sizes: ['auto', '1024x1024', '1536x1024', '1024x1536'],
  qualities: ['auto', 'low', 'medium', 'high'],
  outputFormats: ['png', 'jpeg', 'webp'],
  styles: [],
  backgrounds: ['auto', 'opaque', 'transparent'],
  stream: false,
  maxPartialImages: 0,
  edits: true,
  maxPromptChars: 32000,
});

/** The model's declared image capabilities, field by field over the defaults. */
export function imageCapabilitiesOf(model: ModelSpec): Required<ImageCapabilities> {
  const declared = (model.image ?? {}) as Partial<ImageCapabilities>;
  const out = { ...DEFAULT_IMAGE_CAPABILITIES } as Required<ImageCapabilities>;
  for (const [k, v] of Object.entries(declared) as Array<[keyof ImageCapabilities, never]>) if (v !== undefined) out[k] = v;
  return out;
}

export interface ModelSpec {
  id: string;
  kind: ModelKind;
  displayName?: string;
  description?: string;
  family?: VideoFamily;
  tier?: VideoTier;
  inputTokenLimit?: number;
  outputTokenLimit?: number;
  /** reasoning efforts a text model accepts; undefined = forward the caller's and let the upstream decide; [] = it does not reason */
  reasoningEfforts?: string[];
  image?: ImageCapabilities;
  deployments: Deployment[];
  /** extra client-facing ids and glob patterns (`claude-*`) that route to this model (model-aliases.ts) */
  aliases?: string[];
  /** credits charged for this model (billing.ts) */
  pricing?: import('./pricing').ModelPricing;
  /** provider-specific options, opaque to the core */
  options?: Record<string, unknown>;
  /** the response cache for this model (response-cache.ts); wins over its group's */
  cache?: import('./response-cache').CacheConfig;
}

export interface Group {
  name: string;
  /** model ids, or "*" for every model */
  models: string[];
  /** the response cache for the group's models that set none themselves (response-cache.ts) */
  cache?: import('./response-cache').CacheConfig;
  /** guardrail ids every key of the group runs (guardrails/guardrail.ts) */
  guardrails?: string[];
}

/** The part of a caller that decides which models it sees: its key's group and the key's optional allowlist. */
export interface KeyScope {
  group: string;
  /** model ids (own ids, not aliases); null or absent = every model of the group */
  models?: readonly string[] | null;
}

export class ModelCatalogue {
  private readonly models = new Map<string, ModelSpec>();
  private readonly groups = new Map<string, Group>();
  private aliases = new ModelAliasIndex([]);
  /**
   * The status of a refusal for a known model outside the key's group: the specification's 503 by default, or 403
   * (MODEL_NOT_IN_GROUP_STATUS), which coding agents take as final instead of retrying (resolve-model.ts).
   */
  outsideGroupStatus: 403 | 503 = 503;

  constructor(models: ModelSpec[], groups: Group[]) {
    this.replace(models, groups);
  }

  /** Swaps the whole catalogue at once (config reloads): callers holding this object see the new one. */
  replace(models: ModelSpec[], groups: Group[]): void {
    this.models.clear();
    this.groups.clear();
    for (const m of models) this.models.set(m.id, m);
    for (const g of groups) this.groups.set(g.name, g);
    this.aliases = new ModelAliasIndex(models);
  }

  groupsList(): Group[] {
    return [...this.groups.values()];
  }

  /** The model a client-facing id names: its own id first, then an alias or pattern. */
  get(modelId: string): ModelSpec | undefined {
    const own = this.models.get(modelId);
    if (own) return own;
    const target = this.aliases.target(modelId);
    return target === undefined ? undefined : this.models.get(target);
  }

  group(name: string): Group | undefined {
    return this.groups.get(name);
  }

  hasGroup(name: string): boolean {
    return this.groups.has(name);
  }

  groupAllows(groupName: string, modelId: string): boolean {
    const g = this.groups.get(groupName);
    // a model's own id is looked up directly: resolving a request reads the catalogue once
    const model = this.models.get(modelId) ?? this.get(modelId);
    if (!g || !model) return false;
    return g.models.includes('*') || g.models.includes(model.id);
  }

  /** Models visible to a group, in catalogue order, optionally of one kind: own ids only, never aliases. */
  listForGroup(groupName: string, kind?: ModelKind): ModelSpec[] {
    return [...this.models.values()].filter((m) => this.groupAllows(groupName, m.id) && (kind === undefined || m.kind === kind));
  }

  /** What a key may call: its group's models, narrowed to the key's own allowlist when it has one. */
  keyAllows(key: KeyScope, modelId: string): boolean {
    if (!this.groupAllows(key.group, modelId)) return false;
    return !key.models || key.models.includes((this.models.get(modelId) ?? this.get(modelId))!.id);
  }

  /** Models visible to a key, in catalogue order (the group's list narrowed by the key's allowlist). */
  listForKey(key: KeyScope, kind?: ModelKind): ModelSpec[] {
    return this.listForGroup(key.group, kind).filter((m) => !key.models || key.models.includes(m.id));
  }

  all(): ModelSpec[] {
    return [...this.models.values()];
  }
}
