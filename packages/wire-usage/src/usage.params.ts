import type { Request } from 'express';
import { invalid, USAGE_GROUPINGS, type UsageGrouping } from '@gateway/core';

/** A time bound: Unix seconds or an ISO 8601 date. */
export function timeParam(req: Request, name: string): Date | undefined {
  const v = req.query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw invalid('invalid_time', `"${name}" must be Unix seconds or an ISO 8601 date.`, name);
  const d = /^\d{1,12}$/.test(v) ? new Date(Number(v) * 1000) : new Date(v);
  if (Number.isNaN(d.getTime())) throw invalid('invalid_time', `"${name}" must be Unix seconds or an ISO 8601 date.`, name);
  return d;
}

/** One plain string filter. */
export function textParam(req: Request, name: string): string | undefined {
  const v = req.query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.length > 256 || v.includes('\u0000'))
    throw invalid('invalid_filter', `"${name}" must be one string of at most 256 characters.`, name);
  return v;
}

export function limitParam(req: Request, fallback: number, max: number): number {
  const raw = textParam(req, 'limit') ?? String(fallback);
  const limit = Number(raw);
  if (!/^\d+$/.test(raw) || limit < 1 || limit > max)
    throw invalid('invalid_limit', `"limit" must be an integer from 1 to ${max}.`, 'limit');
  return limit;
}

export function groupByParam(req: Request): UsageGrouping | undefined {
  const v = textParam(req, 'group_by');
  if (v !== undefined && !(USAGE_GROUPINGS as readonly string[]).includes(v))
    throw invalid('invalid_group_by', `"group_by" must be one of ${USAGE_GROUPINGS.join(', ')}.`, 'group_by');
  return v as UsageGrouping | undefined;
}
