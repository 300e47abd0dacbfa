import type { Request, Response } from 'express';
import { invalid, type AuditFilter, type AuditRecord } from '@gateway/core';
import { csvTable } from '@gateway/http-kit';

/** An audit record as GET /admin/audit and GET /v1/audit answer it. */
export const auditView = (r: AuditRecord) => ({
  id: r.id,
  at: r.at.toISOString(),
  actor: r.actor,
  action: r.action,
  target: r.target,
  account: r.accountId,
  before: r.before,
  after: r.after,
  request_id: r.requestId,
  address: r.address,
});

/** Actors whose ids name nobody (the admin key, the CLI): an account's admins may read them. */
const NAMELESS_ACTORS = new Set(['admin_key', 'cli']);
const HIDDEN = '(hidden)';

/**
 * A record as an account's admins read it (GET /v1/audit): the account's own keys are shown whole; anyone else
 * (the platform admin, a person signed in, the config file's path) by type alone and without an address, so a tenant
 * never learns the platform admin's address or identity provider subject.
 */
export function accountAuditView(r: AuditRecord) {
  const view = auditView(r);
  if (r.actor.type === 'key') return view;
  return { ...view, actor: { type: r.actor.type, id: NAMELESS_ACTORS.has(r.actor.type) ? r.actor.id : HIDDEN }, address: null };
}

const text = (req: Request, name: string) => {
  const v = req.query[name];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string' || v.length > 200) throw invalid('invalid_parameter', `"${name}" must be one string.`, name);
  return v;
};

const time = (req: Request, name: string) => {
  const v = text(req, name);
  if (v === undefined) return undefined;
  const at = /^\d{1,12}$/.test(v) ? new Date(Number(v) * 1000) : /^\d{4}-\d{2}-\d{2}/.test(v) ? new Date(v) : null;
  if (!at || Number.isNaN(at.getTime())) throw invalid('invalid_time', `"${name}" must be an ISO 8601 date-time or Unix seconds.`, name);
  return at;
};

/**
 * The query's filters: actor, action and target (each `id` or `type:id`), from/to (ISO 8601 or Unix seconds), limit.
 * An account's view filters by the actors it may see: a bare id is a key's, and hidden ids cannot be probed.
 */
export function auditFilter(req: Request, view: 'platform' | 'account' = 'platform'): AuditFilter {
  let actor = text(req, 'actor');
  if (view === 'account' && actor !== undefined) {
    const i = actor.indexOf(':');
    const type = i > 0 ? actor.slice(0, i) : 'key';
    if (type !== 'key' && !NAMELESS_ACTORS.has(type))
      throw invalid('invalid_parameter', '"actor" names a key (`key:<id>` or its id), `admin_key` or `cli` here.', 'actor');
    actor = `${type}:${i > 0 ? actor.slice(i + 1) : actor}`;
  }
  const limit = text(req, 'limit');
  if (limit !== undefined && !/^\d{1,5}$/.test(limit))
    throw invalid('invalid_limit', '"limit" must be a whole number up to 10000.', 'limit');
  return {
    actor,
    action: text(req, 'action'),
    target: text(req, 'target'),
    from: time(req, 'from'),
    to: time(req, 'to'),
    limit: limit === undefined ? undefined : Math.max(1, Math.min(Number(limit), 10_000)),
  };
}

const CSV_COLUMNS = [
  'id',
  'at',
  'actor_type',
  'actor_id',
  'action',
  'target_type',
  'target_id',
  'account',
  'request_id',
  'address',
  'before',
  'after',
] as const;

/** JSON `{data}`, or CSV with `export=csv` (before/after as JSON text); `account`: as an account's admins read it. */
export function sendAudit(req: Request, res: Response, records: AuditRecord[], view: 'platform' | 'account' = 'platform'): void {
  const data = records.map(view === 'account' ? accountAuditView : auditView);
  const format = text(req, 'export');
  if (format !== undefined && format !== 'csv' && format !== 'json')
    throw invalid('invalid_export', '"export" must be "csv" or "json".', 'export');
  if (format === 'csv') {
    const rows = data.map((r) => ({
      ...r,
      actor_type: r.actor.type,
      actor_id: r.actor.id,
      target_type: r.target.type,
      target_id: r.target.id,
      before: r.before === null ? '' : JSON.stringify(r.before),
      after: r.after === null ? '' : JSON.stringify(r.after),
    }));
    res.type('text/csv').setHeader('content-disposition', 'attachment; filename="audit.csv"');
    res.send(csvTable(CSV_COLUMNS, rows));
    return;
  }
  res.json({ object: 'list', data });
}
