import { invalid, type ModelSpec } from '@gateway/core';
import { displayNameOf, MODEL_CREATED_AT } from './model-metadata';

export const ANTHROPIC_PAGE_LIMIT = Object.freeze({ default: 20, max: 1000 });

export function encodeAnthropicModel(m: ModelSpec) {
  return { type: 'model', id: m.id, display_name: displayNameOf(m), created_at: MODEL_CREATED_AT };
}

function limitOf(raw: unknown): number {
  if (raw === undefined || raw === '') return ANTHROPIC_PAGE_LIMIT.default;
  const n = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= ANTHROPIC_PAGE_LIMIT.max)) {
    throw invalid('invalid_limit', `"limit" must be an integer from 1 to ${ANTHROPIC_PAGE_LIMIT.max}.`, 'limit');
  }
  return n;
}

function indexOf(models: ModelSpec[], raw: unknown, param: string): number {
  const at = typeof raw === 'string' ? models.findIndex((m) => m.id === raw) : -1;
  if (at < 0) throw invalid('invalid_cursor', `"${param}" must be the id of a model in this list.`, param);
  return at;
}

/** `{data, has_more, first_id, last_id}`; `after_id` pages forward, `before_id` backward (not both). */
export function pageAnthropicModels(models: ModelSpec[], query: { limit?: unknown; after_id?: unknown; before_id?: unknown }) {
  const limit = limitOf(query.limit);
  const given = (v: unknown) => v !== undefined && v !== '';
  if (given(query.after_id) && given(query.before_id)) {
    throw invalid('conflicting_cursors', 'Give "after_id" or "before_id", not both.', 'before_id');
  }
  let start: number;
  let end: number;
  let hasMore: boolean;
  if (given(query.before_id)) {
    end = indexOf(models, query.before_id, 'before_id');
    start = Math.max(0, end - limit);
    hasMore = start > 0;
  } else {
    start = given(query.after_id) ? indexOf(models, query.after_id, 'after_id') + 1 : 0;
    end = Math.min(models.length, start + limit);
    hasMore = end < models.length;
  }
  const data = models.slice(start, end).map(encodeAnthropicModel);
  return { data, has_more: hasMore, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null };
}
