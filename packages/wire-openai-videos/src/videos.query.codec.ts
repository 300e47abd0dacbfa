import { invalid, type ListVideoTasksQuery } from '@gateway/core';

export const LIST_LIMITS = Object.freeze({ default: 20, max: 100 });

const single = (v: unknown, name: string): string | undefined => {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw invalid(`invalid_${name}`, `"${name}" must be given once, as a plain value.`, name);
  return v;
};

/** `?limit=&after=&order=` → the use case's list query (cursor paging, newest first by default). */
export function decodeVideoListQuery(query: Record<string, unknown>): ListVideoTasksQuery {
  const limitText = single(query.limit, 'limit');
  const limit = limitText === undefined ? LIST_LIMITS.default : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > LIST_LIMITS.max || !/^\d+$/.test(limitText ?? '1')) {
    throw invalid(
      'invalid_limit',
      `"limit" must be a whole number from 1 to ${LIST_LIMITS.max}; got ${JSON.stringify(limitText)}.`,
      'limit',
    );
  }
  const order = single(query.order, 'order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc')
    throw invalid('invalid_order', `"order" must be asc or desc; got ${JSON.stringify(order)}.`, 'order');
  const after = single(query.after, 'after') || undefined;
  return { limit, order, after };
}

/** `?variant=` of the content route. */
export function decodeVariant(value: unknown): 'video' | 'thumbnail' {
  if (value === undefined || value === 'video') return 'video';
  if (value === 'thumbnail') return 'thumbnail';
  throw invalid(
    'invalid_variant',
    `"variant" must be video or thumbnail (spritesheet is not available); got ${JSON.stringify(value)}.`,
    'variant',
  );
}
