/** A model's `pricing` as the catalogue holds it (credits); video is priced per second, by resolution. */
export interface Pricing {
  inputPerMillionTokens?: number;
  outputPerMillionTokens?: number;
  perImage?: number;
  perVideoSecond?: Record<string, number>;
  [other: string]: unknown;
}

const credits = (n: number) => `${Number(n.toPrecision(6))} credits`;

/** Each price as a line a person reads: "720p: 0.05 credits / second", never an object's text. */
export function priceLines(p: Pricing | undefined | null): string[] {
  if (!p) return [];
  const lines: string[] = [];
  for (const [k, v] of Object.entries(p)) {
    if (k === 'inputPerMillionTokens' && typeof v === 'number') lines.push(`input: ${credits(v)} / 1M tokens`);
    else if (k === 'outputPerMillionTokens' && typeof v === 'number') lines.push(`output: ${credits(v)} / 1M tokens`);
    else if (k === 'perImage' && typeof v === 'number') lines.push(`${credits(v)} / image`);
    else if (k === 'perVideoSecond' && v && typeof v === 'object')
      for (const [res, n] of Object.entries(v as Record<string, number>)) lines.push(`${res}: ${credits(n)} / second`);
    else lines.push(`${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  }
  return lines;
}
