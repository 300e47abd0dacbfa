/** Prices: what a model's use costs in credits, pure, so every format charges alike (the quota rule is use-cases/billing.ts). */
import type { ModelSpec } from './catalogue';
import { GatewayError } from './errors';
import { resolutionsFor } from './video-limits';
import type { Usage } from './text';

/** Credits, per model, in the config file's `pricing`. A model without pricing costs nothing. */
export interface ModelPricing {
  /** text input; also what embeddings and moderation are priced by */
  inputPerMillionTokens?: number;
  outputPerMillionTokens?: number;
  /** text input read from the provider's prompt cache (default: the input price) */
  cachedInputPerMillionTokens?: number;
  /** text input written to the provider's prompt cache (default: the input price) */
  cacheWritePerMillionTokens?: number;
  perImage?: number;
  /** per second of video, by resolution */
  perVideoSecond?: Partial<Record<'480p' | '720p' | '1080p' | '4k', number>>;
  /** speech: per million characters of input text */
  perMillionCharacters?: number;
  /** transcription and translation: per minute of audio */
  perAudioMinute?: number;
  /** rerank: per thousand search units */
  perThousandSearches?: number;
  /** what a batch line pays of each price above (default 1: as a live request) */
  batchMultiplier?: number;
  /** what an answer served from the response cache pays of the normal price (default 0: free) */
  cacheHitMultiplier?: number;
}

/** The model as a batch line of `principal` is priced: every price times `batchMultiplier` (a live call: unchanged). */
export function batchPriced(model: ModelSpec, principal: { batchId?: string }): ModelSpec {
  const k = model.pricing?.batchMultiplier;
  if (!principal.batchId || k === undefined || k === 1 || !model.pricing) return model;
  const scale = (v: unknown): unknown =>
    typeof v === 'number' ? v * k : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([f, x]) => [f, scale(x)])) : v;
  const { batchMultiplier: _, ...prices } = model.pricing;
  return { ...model, pricing: scale(prices) as ModelPricing };
}

/** What a call of a metered kind (embeddings, speech, transcription, rerank, moderation) used, as its usage row shows it. */
export interface MeteredUsage {
  inputTokens?: number;
  outputTokens?: number;
  characters?: number;
  audioSeconds?: number;
  searchUnits?: number;
}

/** The one price field each metered kind is charged by (a price table of that kind must set it). */
export const METERED_PRICE_FIELD = {
  embedding: 'inputPerMillionTokens',
  moderation: 'inputPerMillionTokens',
  speech: 'perMillionCharacters',
  transcription: 'perAudioMinute',
  rerank: 'perThousandSearches',
} as const satisfies Record<string, keyof ModelPricing>;

export type MeteredKind = keyof typeof METERED_PRICE_FIELD;

const round = (n: number) => Math.round(n * 1e6) / 1e6;

export function pricingOf(model: ModelSpec): ModelPricing {
  return model.pricing ?? {};
}

/**
 * A text call's credits. Input tokens read from or written to the provider's prompt cache (a subset of inputTokens)
 * are priced by their own fields, each defaulting to the input price; the rest at the input price.
 */
export function textCost(model: ModelSpec, usage: Usage): number {
  const p = pricingOf(model);
  const input = p.inputPerMillionTokens ?? 0;
  const cached = Math.max(0, usage.cachedInputTokens ?? 0);
  const written = Math.max(0, usage.cacheCreationInputTokens ?? 0);
  const plain = Math.max(0, usage.inputTokens - cached - written);
  const inputCost = input * plain + (p.cachedInputPerMillionTokens ?? input) * cached + (p.cacheWritePerMillionTokens ?? input) * written;
  return round((inputCost + (p.outputPerMillionTokens ?? 0) * usage.outputTokens) / 1e6);
}

/** What a metered call costs: its kind's one price times the units it used. */
export function meteredCost(model: ModelSpec, usage: MeteredUsage): number {
  const p = pricingOf(model);
  switch (model.kind) {
    case 'embedding':
    case 'moderation':
      return round(((p.inputPerMillionTokens ?? 0) * (usage.inputTokens ?? 0)) / 1e6);
    case 'speech':
      return round(((p.perMillionCharacters ?? 0) * (usage.characters ?? 0)) / 1e6);
    case 'transcription':
      return round(((p.perAudioMinute ?? 0) * (usage.audioSeconds ?? 0)) / 60);
    case 'rerank':
      return round(((p.perThousandSearches ?? 0) * (usage.searchUnits ?? 0)) / 1000);
    default:
      return 0;
  }
}

export function imageCost(model: ModelSpec, images: number): number {
  return round((pricingOf(model).perImage ?? 0) * images);
}

export function videoCost(model: ModelSpec, resolution: string, seconds: number): number {
  if (!model.pricing) return 0;
  const per = model.pricing.perVideoSecond?.[resolution as '720p'];
  // Fails closed: a priced model never renders an unpriced resolution for free (start-up refuses such a table).
  if (per === undefined) throw new GatewayError('internal', `Model ${model.id} has no price for ${resolution} video.`);
  return round(per * seconds);
}

/**
 * Pricing fails closed: a model with a price table must price everything it offers. Returns what is missing
 * (for the config error), or null when the table is complete or the model is free (no table at all).
 * Video is priced per second, so every duration is covered by the resolution's price; images are priced
 * per image, the same for every size and quality.
 */
export function missingPrice(model: ModelSpec): string | null {
  const p = model.pricing;
  if (!p) return null;
  if (model.kind === 'text') {
    const gaps = (['inputPerMillionTokens', 'outputPerMillionTokens'] as const).filter((k) => p[k] === undefined);
    return gaps.length ? `text model ${model.id} has a price table without ${gaps.join(' and ')}` : null;
  }
  if (model.kind === 'image') return p.perImage === undefined ? `image model ${model.id} has a price table without perImage` : null;
  if (model.kind in METERED_PRICE_FIELD) {
    const field = METERED_PRICE_FIELD[model.kind as MeteredKind];
    return p[field] === undefined ? `${model.kind} model ${model.id} has a price table without ${field}` : null;
  }
  if (!model.family || !model.tier) return null;
  const gaps = resolutionsFor(model.family, model.tier).filter((r) => p.perVideoSecond?.[r] === undefined);
  return gaps.length
    ? `video model ${model.id} offers ${gaps.join(', ')} but perVideoSecond does not price ${gaps.length > 1 ? 'them' : 'it'}`
    : null;
}

/** What a succeeded video task is finally charged, and what goes back (billing on what was delivered). */
export interface VideoSettlement {
  /** what admission reserved */
  reserved: number;
  /** what the task finally costs: never more than reserved */
  charge: number;
  /** reserved − charge, given back */
  refund: number;
}

/**
 * The delivery rule, once: a task is charged for what was delivered, at the prices it was admitted under, never
 * more than was reserved. The reservation is scaled by delivered value ÷ requested value (both at today's prices),
 * so a price change between admission and delivery never turns into a refund or a surcharge of its own; delivered
 * seconds count up to the requested seconds, and a delivered resolution the model does not price counts as the
 * requested one. A model gone from the config keeps the reservation (nothing to weigh it by).
 */
export function settleDeliveredVideo(
  model: ModelSpec | undefined,
  requested: { resolution: string; durationSeconds: number },
  delivered: { resolution: string; durationSeconds: number },
  reserved: number,
): VideoSettlement {
  const keep = { reserved, charge: reserved, refund: 0 };
  if (!model?.pricing || reserved <= 0) return keep;
  const wanted = videoCost(model, requested.resolution, requested.durationSeconds);
  if (wanted <= 0) return keep;
  const priced = model.pricing.perVideoSecond?.[delivered.resolution as '720p'] !== undefined;
  const seconds = Math.max(0, Math.min(delivered.durationSeconds, requested.durationSeconds));
  const got = videoCost(model, priced ? delivered.resolution : requested.resolution, seconds);
  const charge = round(reserved * Math.min(1, got / wanted));
  return { reserved, charge, refund: round(reserved - charge) };
}
