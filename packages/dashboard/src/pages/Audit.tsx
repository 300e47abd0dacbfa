import { useState, type FormEvent } from 'react';
import { call, getJson, query } from '../api';
import type { Session } from '../session';
import type { Caller } from '../roles';
import { AdminOnly, ErrorNote, Field } from '../components/bits';
import { useLoad } from '../components/use-load';
import { DataTable } from '../components/data-table';
import { FilterActions, useCsvExport } from '../components/csv-export';

interface AuditRecord {
  id: string;
  at: string;
  actor: { type: string; id: string };
  action: string;
  target: { type: string; id: string };
  account?: string | null;
  before: unknown;
  after: unknown;
  request_id: string | null;
}

interface Filters {
  actor: string;
  action: string;
  target: string;
  from: string;
  to: string;
}
const EMPTY: Filters = { actor: '', action: '', target: '', from: '', to: '' };

/** The platform admin reads every record (/admin/audit), an account admin its account's slice (/v1/audit). */
export function auditPath(caller: Caller, f: Filters, csv = false): string {
  const iso = (v: string) => (v ? new Date(v).toISOString() : undefined);
  const q = query({
    actor: f.actor,
    action: f.action,
    target: f.target,
    from: iso(f.from),
    to: iso(f.to),
    limit: 500,
    export: csv ? 'csv' : undefined,
  });
  return `${caller === 'platform' ? '/admin/audit' : '/v1/audit'}${q}`;
}

const brief = (v: unknown) => (v === null || v === undefined ? '—' : JSON.stringify(v));

/** Who changed what and when: read-only (no API edits or deletes a record), filtered, exported as CSV. */
export function Audit({ session, caller }: { session: Session; caller: Caller }) {
  const [draft, setDraft] = useState(EMPTY);
  const [applied, setApplied] = useState(EMPTY);
  const allowed = caller !== 'member';
  const { exportError, exportCsv } = useCsvExport(() => call(session.key, auditPath(caller, applied, true)), 'audit.csv');
  const records = useLoad(
    () => (allowed ? getJson<{ data: AuditRecord[] }>(session.key, auditPath(caller, applied)).then((r) => r.data) : Promise.resolve([])),
    [session.key, caller, applied],
  );
  if (!allowed) return <AdminOnly what="Audit records" />;
  const set = (k: keyof Filters) => (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value });
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setApplied(draft);
  };
  return (
    <section>
      <h1>Audit</h1>
      <form className="filters" onSubmit={apply} aria-label="Audit filters">
        <Field label="Actor">
          <input value={draft.actor} onChange={set('actor')} placeholder="key:key_… or admin_key:admin" />
        </Field>
        <Field label="Action">
          <input value={draft.action} onChange={set('action')} placeholder="key.rotate" />
        </Field>
        <Field label="Target">
          <input value={draft.target} onChange={set('target')} placeholder="key:key_…" />
        </Field>
        <Field label="From">
          <input type="datetime-local" value={draft.from} onChange={set('from')} />
        </Field>
        <Field label="To">
          <input type="datetime-local" value={draft.to} onChange={set('to')} />
        </Field>
        <FilterActions onExport={exportCsv} />
      </form>
      <ErrorNote error={records.error ?? exportError} />
      <DataTable
        label="Audit log"
        rows={records.data}
        rowKey={(r) => r.id}
        columns={[
          ['When', (r) => new Date(r.at).toLocaleString()],
          ['Actor', (r) => `${r.actor.type}:${r.actor.id}`],
          ['Action', (r) => r.action],
          ['Target', (r) => `${r.target.type}:${r.target.id}`],
          caller === 'platform' && ['Account', (r) => r.account ?? '—'],
          ['Before', (r) => <code className="json-inline">{brief(r.before)}</code>],
          ['After', (r) => <code className="json-inline">{brief(r.after)}</code>],
          ['Request id', (r) => <code>{r.request_id ?? '—'}</code>],
        ]}
      />
      {records.data?.length === 0 && <p className="note">No records match.</p>}
    </section>
  );
}
