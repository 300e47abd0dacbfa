import { useState, type FormEvent } from 'react';
import { getJson, sendJson } from '../api';
import type { Session } from '../session';
import type { Caller } from '../roles';
import { ErrorNote, Field, time } from '../components/bits';
import { useLoad } from '../components/use-load';
import { DataTable } from '../components/data-table';

interface Endpoint {
  id: string;
  url: string;
  events: string[] | null;
  status: string;
  disabled_reason?: string | null;
}
interface Delivery {
  event_id: string;
  type: string;
  task_id: string | null;
  status: string;
  next_attempt_at: number | string | null;
  attempts?: Array<{ response_status?: number | null; error?: string | null }>;
}

const BASE = '/v1/webhook_endpoints';

/**
 * An account admin's webhook endpoints (/v1/webhook_endpoints): add one (its signing secret shown once), delete one,
 * read its latest deliveries. Secrets are never shown again.
 */
export function Webhooks({ session, caller }: { session: Session; caller: Caller }) {
  const mine = caller === 'admin';
  const endpoints = useLoad(
    () => (mine ? getJson<{ data: Endpoint[] }>(session.key, BASE).then((r) => r.data) : Promise.resolve([])),
    [session.key, mine],
  );
  const [f, setF] = useState({ url: '', events: '' });
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  if (!mine) return <p className="note">Webhook endpoints are for the account&apos;s admins: sign in with a key whose role is admin.</p>;
  const add = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const events = f.events
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    try {
      const made = await sendJson<{ secret: string }>(session.key, 'POST', BASE, { url: f.url.trim(), ...(events.length && { events }) });
      setSecret(made.secret);
      setF({ url: '', events: '' });
      endpoints.reload();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const remove = async (id: string) => {
    setError(null);
    try {
      await sendJson(session.key, 'DELETE', `${BASE}/${encodeURIComponent(id)}`);
      endpoints.reload();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <section>
      <h1>Webhooks</h1>
      <form className="panel form" onSubmit={(e) => void add(e)} aria-label="Add endpoint">
        <Field label="Endpoint URL">
          <input type="url" value={f.url} onChange={(e) => setF({ ...f, url: e.target.value })} required />
        </Field>
        <Field label="Events (comma-separated, empty: all)">
          <input value={f.events} onChange={(e) => setF({ ...f, events: e.target.value })} />
        </Field>
        <div className="actions">
          <button type="submit">Add endpoint</button>
        </div>
      </form>
      {secret && (
        <div className="panel" role="status">
          <p>The endpoint&apos;s signing secret, shown this once: copy it now.</p>
          <output aria-label="Signing secret" className="secret">
            {secret}
          </output>
        </div>
      )}
      <ErrorNote error={error ?? endpoints.error} />
      <DataTable
        label="Webhook endpoints"
        rows={endpoints.data}
        rowKey={(ep) => ep.id}
        columns={[
          ['URL', (ep) => ep.url],
          ['Events', (ep) => ep.events?.join(', ') ?? 'all'],
          ['Status', (ep) => `${ep.status}${ep.disabled_reason ? ` (${ep.disabled_reason})` : ''}`],
          [
            '',
            (ep) => (
              <>
                <button type="button" onClick={() => setOpen(open === ep.id ? null : ep.id)}>
                  Deliveries
                </button>
                <button type="button" className="danger" onClick={() => void remove(ep.id)}>
                  Delete
                </button>
              </>
            ),
            'row-actions',
          ],
        ]}
      />
      {open && <Deliveries apiKey={session.key} id={open} />}
    </section>
  );
}

function Deliveries({ apiKey, id }: { apiKey: string; id: string }) {
  const list = useLoad(
    () => getJson<{ data: Delivery[] }>(apiKey, `${BASE}/${encodeURIComponent(id)}/deliveries`).then((r) => r.data),
    [apiKey, id],
  );
  const when = (v: number | string | null) => (v === null ? '—' : typeof v === 'number' ? time(v) : new Date(v).toLocaleString());
  return (
    <>
      <h2>Deliveries</h2>
      <ErrorNote error={list.error} />
      <DataTable
        label="Deliveries"
        rows={list.data}
        rowKey={(d) => d.event_id}
        columns={[
          ['Event', (d) => <code>{d.event_id}</code>],
          ['Type', (d) => d.type],
          ['Task', (d) => d.task_id ?? '—'],
          ['Status', (d) => d.status],
          ['Attempts', (d) => (d.attempts ?? []).map((a) => a.response_status ?? a.error ?? '?').join(', ') || '—'],
          ['Next attempt', (d) => when(d.next_attempt_at)],
        ]}
      />
      {list.data?.length === 0 && <p className="note">No deliveries yet.</p>}
    </>
  );
}
