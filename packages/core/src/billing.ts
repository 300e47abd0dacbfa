/** Prices and the quota rule: pure, so every format charges alike. */
import type { ModelSpec } from './catalogue';
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
  const per = pricingOf(model).perVideoSecond?.[resolution as '720p'] ?? 0;
  return round(per * seconds);
}
