import { invalid, TASK_STATUSES, type ListVideoTasksQuery, type TaskStatus } from '@gateway/core';

export const PAGE_LIMITS = Object.freeze({ max: 500, defaultSize: 10 });
const FILTERS = ['status', 'model', 'task_ids'];

/** Accepts Ark's `filter.status=` spelling and the bracket form `filter[status]=` alike. */
function filtersOf(query: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) {
    if (k.startsWith('filter.')) out[k.slice(7)] = v;
  }
  if (query.filter !== null && typeof query.filter === 'object' && !Array.isArray(query.filter)) Object.assign(out, query.filter);
  return out;
}

function pageValue(v: unknown, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > PAGE_LIMITS.max) {
    throw invalid(`invalid_${name}`, `"${name}" must be a whole number from 1 to ${PAGE_LIMITS.max}; got ${JSON.stringify(v)}.`, name);
  }
  return n;
}

/** `page_num, page_size, filter.status, filter.model, filter.task_ids` → the use case's list query (newest first). */
export function decodeTaskListQuery(query: Record<string, unknown>): ListVideoTasksQuery {
  const pageNum = pageValue(query.page_num, 'page_num', 1);
  const pageSize = pageValue(query.page_size, 'page_size', PAGE_LIMITS.defaultSize);
  const filters = filtersOf(query);
  for (const k of Object.keys(filters)) {
    if (!FILTERS.includes(k))
      throw invalid(
        'unsupported_filter',
        `filter.${k} is not supported; filters: ${FILTERS.map((f) => `filter.${f}`).join(', ')}.`,
        `filter.${k}`,
      );
  }
  const { status, model, task_ids: ids } = filters;
  if (status !== undefined && !(TASK_STATUSES as readonly unknown[]).includes(status)) {
    throw invalid(
      'invalid_status_filter',
      `filter.status must be one of ${TASK_STATUSES.join(', ')}; got ${JSON.stringify(status)}.`,
      'filter.status',
    );
  }
  if (model !== undefined && typeof model !== 'string')
    throw invalid('invalid_model_filter', 'filter.model must be given once.', 'filter.model');
  const idList = ids === undefined ? undefined : Array.isArray(ids) ? ids : [ids];
  if (idList && !idList.every((x) => typeof x === 'string' && x.length > 0)) {
    throw invalid('invalid_task_ids_filter', 'filter.task_ids must be task ids (repeat the parameter for several).', 'filter.task_ids');
  }
  return {
    limit: pageSize,
    offset: (pageNum - 1) * pageSize,
    order: 'desc',
    status: status as TaskStatus | undefined,
    model: model || undefined,
    ids: idList as string[] | undefined,
  };
}
