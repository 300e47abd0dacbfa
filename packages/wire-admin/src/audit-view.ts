import type { Response } from 'express';
import { invalid, type AuditFilter, type AuditRecord, type GatewayError } from '@gateway/core';
import { csvTable, queryParams, type SchemaRefusal } from '@gateway/http-kit';
import { auditParams } from './self-service.openapi';

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

/** The audit routes' query as declared and checked (an empty value counts as absent). */
export interface AuditQuery {
  actor?: string;
  action?: string;
  target?: string;
  from?: string;
  to?: string;
  limit?: string;
  export?: string;
}

const text = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);

const badTime = (name: string) => invalid('invalid_time', `"${name}" must be an ISO 8601 date-time or Unix seconds.`, name);

/** The form of a time is checked by the schema; a form that names no instant (month 13) is refused here. */
const time = (q: AuditQuery, name: 'from' | 'to') => {
  const v = text(q[name]);
  if (v === undefined) return undefined;
  const at = /^\d{1,12}$/.test(v) ? new Date(Number(v) * 1000) : new Date(v);
  if (Number.isNaN(at.getTime())) throw badTime(name);
  return at;
};

/** Each parameter's own refusal when it is one string of a wrong form; a repeated or over-long one is `invalid_parameter`. */
const FORM: Record<string, (name: string) => GatewayError> = {
  from: badTime,
  to: badTime,
  limit: () => invalid('invalid_limit', '"limit" must be a whole number up to 10000.', 'limit'),
  export: () => invalid('invalid_export', '"export" must be "csv" or "json".', 'export'),
};
const ORDER = ['actor', 'limit', 'action', 'target', 'from', 'to', 'export'];

const refuseAuditQuery: SchemaRefusal = (failures) => {
  const first = [...failures].sort((a, b) => ORDER.indexOf(a.at) - ORDER.indexOf(b.at))[0];
  if (!first) return undefined;
  if (first.keyword === 'type' || first.keyword === 'maxLength')
    return invalid('invalid_parameter', `"${first.at}" must be one string.`, first.at);
  return FORM[first.at]?.(first.at);
};

/** GET /admin/audit's and GET /v1/audit's query, checked before the handler. */
export const auditQuery = queryParams<AuditQuery>(auditParams, { refuse: refuseAuditQuery });

/**
 * The query's filters: actor, action and target (each `id` or `type:id`), from/to (ISO 8601 or Unix seconds), limit.
 * An account's view filters by the actors it may see: a bare id is a key's, and hidden ids cannot be probed.
 */
export function auditFilter(q: AuditQuery, view: 'platform' | 'account' = 'platform'): AuditFilter {
  let actor = text(q.actor);
  if (view === 'account' && actor !== undefined) {
    const i = actor.indexOf(':');
    const type = i > 0 ? actor.slice(0, i) : 'key';
    if (type !== 'key' && !NAMELESS_ACTORS.has(type))
      throw invalid('invalid_parameter', '"actor" names a key (`key:<id>` or its id), `admin_key` or `cli` here.', 'actor');
    actor = `${type}:${i > 0 ? actor.slice(i + 1) : actor}`;
  }
  const limit = text(q.limit);
  return {
    actor,
    action: text(q.action),
    target: text(q.target),
    from: time(q, 'from'),
    to: time(q, 'to'),
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
export function sendAudit(q: AuditQuery, res: Response, records: AuditRecord[], view: 'platform' | 'account' = 'platform'): void {
  const data = records.map(view === 'account' ? accountAuditView : auditView);
  if (q.export === 'csv') {
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
