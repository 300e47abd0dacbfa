import { unsupportedSetting, type ImagePart, type TextRequest, type Usage, type Warning } from '@gateway/core';

/** Tool-call arguments are JSON text in the canonical model; upstreams that want an object get one. */
export function parseToolArguments(args: string): { value: Record<string, unknown>; ok: boolean } {
  if (!args.trim()) return { value: {}, ok: true };
  try {
    const v = JSON.parse(args) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return { value: v as Record<string, unknown>, ok: true };
  } catch {
    // fall through: not an object
  }
  return { value: {}, ok: false };
}

/** Inline images as data URLs, linked ones as given. */
export function imageUrl(p: ImagePart): string {
  return p.data !== undefined ? `data:${p.mediaType ?? 'image/png'};base64,${p.data}` : (p.url ?? '');
}

/**
 * The client's fields the canonical request has no place for (`native.unread`), read from its own body: an
 * upstream of the client's dialect that converts rather than forwards sends them on; any other names each in a
 * warning. A field the gateway removed from the body (account-resources.ts) is neither sent nor named here.
 */
export function unreadFields(req: TextRequest, dialect: string): { fields: Record<string, unknown>; warnings: Warning[] } {
  const native = req.native;
  const names = native?.unread?.filter((k) => native.body[k] !== undefined) ?? [];
  if (!native || !names.length) return { fields: {}, warnings: [] };
  if (native.dialect === dialect) return { fields: Object.fromEntries(names.map((k) => [k, native.body[k]])), warnings: [] };
  return {
    fields: {},
    // the names are the caller's own: warningText sanitises them when they are rendered
    warnings: names.map((k) => unsupportedSetting(k, 'has no equivalent in the upstream format; not sent')),
  };
}

/** Text of a tool result's parts; images become a marker and a warning where the upstream takes text only. */
export function toolResultText(content: Array<{ type: string; text?: string }>): { text: string; droppedImages: number } {
  let droppedImages = 0;
  const text = content
    .map((c) => {
      if (c.type === 'text') return c.text ?? '';
      droppedImages++;
      return '';
    })
    .join('');
  return { text, droppedImages };
}

/**
 * The canonical usage from an upstream's counts, already in the canonical meaning (input includes cached tokens,
 * output includes reasoning ones): the total is the upstream's when it sends one, else input + output; the cached and
 * reasoning counts appear only when the upstream gave them.
 */
export function usageOf(c: { input: number; output: number; total?: number; cached?: number; reasoning?: number }): Usage {
  return {
    inputTokens: c.input,
    outputTokens: c.output,
    totalTokens: c.total ?? c.input + c.output,
    ...(c.cached !== undefined ? { cachedInputTokens: c.cached } : {}),
    ...(c.reasoning !== undefined ? { reasoningTokens: c.reasoning } : {}),
  };
}
