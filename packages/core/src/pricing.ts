/** Prices: what a model's use costs in credits, pure, so every format charges alike (the quota rule is use-cases/billing.ts). */
import type { ModelSpec } from './catalogue';
import { GatewayError } from './errors';
import { resolutionsFor } from './video-limits';
import type { Usage } from './text';

/** Credits, per model, in the config file's `pricing`. A model without pricing costs nothing. */
export interface ModelPricing {
  inputPerMillionTokens?: number;
  outputPerMillionTokens?: number;
  perImage?: number;
  /** per second of video, by resolution */
  perVideoSecond?: Partial<Record<'480p' | '720p' | '1080p' | '4k', number>>;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

export function pricingOf(model: ModelSpec): ModelPricing {
  return model.pricing ?? {};
}

export function textCost(model: ModelSpec, usage: Usage): number {
  const p = pricingOf(model);
  return round(((p.inputPerMillionTokens ?? 0) * usage.inputTokens + (p.outputPerMillionTokens ?? 0) * usage.outputTokens) / 1e6);
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
