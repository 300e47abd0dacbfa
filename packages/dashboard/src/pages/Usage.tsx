import { useState, type FormEvent } from 'react';
import type { Session } from '../session';
import { ErrorNote, Field, num, time } from '../components/bits';
import { useLoad } from '../components/use-load';
import { DataTable } from '../components/data-table';
import { FilterActions, useCsvExport } from '../components/csv-export';
import { usageCsv, usageRows, type UsageFilters } from '../usage-rows';
import { RANGES, rangeOf, type Scope } from '../usage-analytics';
import type { Caller } from '../roles';
import { UsageAnalytics } from './UsageAnalytics';

const EMPTY: UsageFilters = { from: '', to: '', account: '', key: '', model: '', provider: '', status: '' };

/** The filters as applied: a preset range counted back from the moment they were applied. */
const appliedOf = (draft: UsageFilters, preset: string): UsageFilters => ({
  ...draft,
  ...rangeOf(preset, draft.from ?? '', draft.to ?? '', Date.now()),
});
const scopeOf = (f: UsageFilters): Scope => ({
  from: f.from,
  to: f.to,
  account: f.account,
  key: f.key,
  model: f.model,
  provider: f.provider,
});

/**
 * Totals over a time range (UsageAnalytics), then the request log, newest first, filtered by time, account (admin),
 * key, model, provider and status; CSV export.
 */
export function Usage({ session, caller }: { session: Session; caller: Caller }) {
  const [preset, setPreset] = useState('7d');
  const [draft, setDraft] = useState<UsageFilters>(EMPTY);
  const [applied, setApplied] = useState<UsageFilters>(() => appliedOf(EMPTY, '7d'));
  const [scope, setScope] = useState<Scope>(() => scopeOf(applied));
  const { exportError, exportCsv } = useCsvExport(() => usageCsv(session, applied), 'usage.csv');
  const rows = useLoad(() => usageRows(session, applied), [session.key, applied]);
  const set = (k: keyof UsageFilters) => (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value });
  const apply = (e: FormEvent) => {
    e.preventDefault();
    const next = appliedOf(draft, preset);
    setApplied(next);
    setScope(scopeOf(next));
  };
  const admin = session.role === 'admin';
  return (
    <section>
      <h1>Usage</h1>
      <form className="filters" onSubmit={apply} aria-label="Filters">
        <Field label="Time range">
          <select value={preset} onChange={(e) => setPreset(e.target.value)}>
            {RANGES.map(([id, label]) => (
              <option key={id} value={id}>
                {label}
              </option>
            ))}
            <option value="custom">From … to …</option>
          </select>
        </Field>
        {preset === 'custom' && (
          <>
            <Field label="From">
              <input type="datetime-local" value={draft.from} onChange={set('from')} />
            </Field>
            <Field label="To">
              <input type="datetime-local" value={draft.to} onChange={set('to')} />
            </Field>
          </>
        )}
        {admin && (
          <Field label="Account">
            <input value={draft.account} onChange={set('account')} />
          </Field>
        )}
        <Field label="Key id">
          <input value={draft.key} onChange={set('key')} />
        </Field>
        <Field label="Model">
          <input value={draft.model} onChange={set('model')} />
        </Field>
        <Field label="Provider">
          <input value={draft.provider} onChange={set('provider')} />
        </Field>
        <Field label="Status">
          <select value={draft.status} onChange={set('status')}>
            <option value="">any</option>
            {['ok', 'error', 'cancelled', 'refunded', 'queued', 'running', 'succeeded', 'failed'].map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </Field>
        <FilterActions onExport={exportCsv} />
      </form>
      <UsageAnalytics session={session} caller={caller} scope={scope} />
      <h2>Requests</h2>
      <ErrorNote error={rows.error ?? exportError} />
      <DataTable
        label="Request log"
        rows={rows.data}
        rowKey={(r) => r.id}
        columns={[
          ['Time', (r) => time(r.created_at)],
          admin && ['Account', (r) => r.account],
          ['Key', (r) => <code>{r.key_id ?? '—'}</code>],
          ['Model', (r) => r.model ?? '—'],
          ['Provider', (r) => r.provider ?? '—'],
          ['Format', (r) => r.format],
          [
            'Status',
            (r) => (
              <>
                {r.status} {r.http_status}
                {r.error_code ? ` ${r.error_code}` : ''}
              </>
            ),
          ],
          ['Tokens in/out', (r) => `${num(r.input_tokens)} / ${num(r.output_tokens)}`],
          ['Latency ms', (r) => num(r.latency_ms)],
          ['Credits', (r) => num(r.credits, 4)],
          ['Request id', (r) => <code>{r.request_id}</code>],
        ]}
      />
      {rows.data?.length === 0 && <p className="note">No requests match.</p>}
    </section>
  );
}
