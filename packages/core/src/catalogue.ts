/** Model capabilities as data. */

export type ModelKind = 'text' | 'image' | 'video';
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
  /** reasoning efforts a text model accepts; undefined = not a reasoning model */
  reasoningEfforts?: string[];
  image?: ImageCapabilities;
  deployments: Deployment[];
  /** credits charged for this model (billing.ts) */
  pricing?: import('./billing').ModelPricing;
  /** provider-specific options, opaque to the core */
  options?: Record<string, unknown>;
}

export interface Group {
  name: string;
  /** model ids, or "*" for every model */
  models: string[];
}

export class ModelCatalogue {
  private readonly models = new Map<string, ModelSpec>();
  private readonly groups = new Map<string, Group>();

  constructor(models: ModelSpec[], groups: Group[]) {
    this.replace(models, groups);
  }

  /** Swaps the whole catalogue at once (config reloads): callers holding this object see the new one. */
  replace(models: ModelSpec[], groups: Group[]): void {
    this.models.clear();
    this.groups.clear();
    for (const m of models) this.models.set(m.id, m);
    for (const g of groups) this.groups.set(g.name, g);
  }

  groupsList(): Group[] {
    return [...this.groups.values()];
  }

  get(modelId: string): ModelSpec | undefined {
    return this.models.get(modelId);
  }

  hasGroup(name: string): boolean {
    return this.groups.has(name);
  }

  groupAllows(groupName: string, modelId: string): boolean {
    const g = this.groups.get(groupName);
    if (!g || !this.models.has(modelId)) return false;
    return g.models.includes('*') || g.models.includes(modelId);
  }

  /** Models visible to a group, in catalogue order, optionally of one kind. */
  listForGroup(groupName: string, kind?: ModelKind): ModelSpec[] {
    return [...this.models.values()].filter((m) => this.groupAllows(groupName, m.id) && (kind === undefined || m.kind === kind));
  }

  all(): ModelSpec[] {
    return [...this.models.values()];
  }
}
