import { useState, type FormEvent } from 'react';
import { getJson, sendJson } from '../api';
import type { Session } from '../session';
import { AdminOnly, ErrorNote, Field, SaveOrCancel } from '../components/bits';
import { useLoad } from '../components/use-load';
import { DataTable } from '../components/data-table';

type Kind = 'providers' | 'models' | 'groups';
const KINDS: Array<[Kind, string]> = [
  ['providers', 'Providers'],
  ['models', 'Models'],
  ['groups', 'Groups'],
];

/** What GET /admin/providers shows for a stored literal key: only that one is set, never the key. */
const SET = '(set)';

type Entry = Record<string, unknown> & { source?: string };

const idOf = (kind: Kind, e: Entry) => String(kind === 'groups' ? e.name : e.id);

/** The entry as the editor shows it: without its id, its source, and (providers) the key, which is write-only. */
function editable(e: Entry): string {
  const { id: _id, name: _name, source: _source, apiKey: _apiKey, ...rest } = e;
  return JSON.stringify(rest, null, 2);
}

/**
 * The key field of a provider: a literal key is entered, never shown back. Left empty, the stored key stays (the
 * gateway reads `(set)` as "keep"); `env:NAME` names a variable and is no secret, so it is shown.
 */
function apiKeyOf(current: unknown, entered: string): Record<string, unknown> {
  if (entered.trim()) return { apiKey: entered.trim() };
  return current === undefined ? {} : { apiKey: current === SET ? SET : current };
}

/**
 * The catalogue the platform admin edits through PUT /admin/{providers,models,groups}/{id}: each entry as JSON, the
 * gateway validating it against the whole config before it applies (a refused change names the field).
 */
export function Catalogue({ session }: { session: Session }) {
  const admin = session.role === 'admin';
  const [kind, setKind] = useState<Kind>('providers');
  const entries = useLoad(
    () => (admin ? getJson<{ data: Entry[] }>(session.key, `/admin/${kind}`).then((r) => r.data) : Promise.resolve([])),
    [session.key, kind, admin],
  );
  const [editing, setEditing] = useState<{ id: string; entry: Entry | null } | null>(null);
  if (!admin) return <AdminOnly what="The catalogue's providers, models and groups" />;
  return (
    <section>
      <h1>Catalogue</h1>
      <div className="tabs" role="tablist">
        {KINDS.map(([k, label]) => (
          <button
            key={k}
            type="button"
            role="tab"
            aria-selected={k === kind}
            onClick={() => {
              setKind(k);
              setEditing(null);
            }}
          >
            {label}
          </button>
        ))}
      </div>
      <button type="button" onClick={() => setEditing({ id: '', entry: null })}>
        New {kind.slice(0, -1)}
      </button>
      {editing && (
        <EntryEditor
          key={`${kind}/${editing.id}`}
          adminKey={session.key}
          kind={kind}
          id={editing.id}
          entry={editing.entry}
          onDone={() => {
            setEditing(null);
            entries.reload();
          }}
        />
      )}
      <ErrorNote error={entries.error} />
      <DataTable
        label={`Catalogue ${kind}`}
        rows={entries.data}
        rowKey={(e) => idOf(kind, e)}
        columns={[
          ['Id', (e) => idOf(kind, e)],
          kind === 'providers' && [
            'API key',
            (e) => (e.apiKey === undefined ? 'none' : e.apiKey === SET ? 'set (write-only)' : String(e.apiKey)),
          ],
          ['Settings', (e) => <pre className="json">{editable(e)}</pre>],
          ['Source', (e) => e.source ?? '—'],
          [
            '',
            (e) => (
              <button type="button" onClick={() => setEditing({ id: idOf(kind, e), entry: e })}>
                Edit {idOf(kind, e)}
              </button>
            ),
          ],
        ]}
      />
    </section>
  );
}

function EntryEditor(props: { adminKey: string; kind: Kind; id: string; entry: Entry | null; onDone: () => void }) {
  const [id, setId] = useState(props.id);
  const [text, setText] = useState(props.entry ? editable(props.entry) : '{}');
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const body = JSON.parse(text) as Record<string, unknown>;
      if (props.kind === 'providers') Object.assign(body, apiKeyOf(props.entry?.apiKey, apiKey));
      await sendJson(props.adminKey, 'PUT', `/admin/${props.kind}/${encodeURIComponent(id.trim())}`, body);
      props.onDone();
    } catch (err) {
      setError(err instanceof SyntaxError ? `The settings are not JSON: ${err.message}` : (err as Error).message);
    }
  };
  return (
    <form
      className="panel form"
      onSubmit={(e) => void submit(e)}
      aria-label={props.id ? `Edit ${props.id}` : `New ${props.kind.slice(0, -1)}`}
    >
      <Field label="Id">
        <input value={id} onChange={(e) => setId(e.target.value)} readOnly={!!props.id} required />
      </Field>
      {props.kind === 'providers' && (
        <Field label={props.entry?.apiKey === SET ? 'New API key (a key is set; empty keeps it)' : 'API key'}>
          <input type="password" autoComplete="off" value={apiKey} onChange={(e) => setApiKey(e.target.value)} />
        </Field>
      )}
      <Field label="Settings (JSON)">
        <textarea rows={12} value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} />
      </Field>
      <SaveOrCancel save={'Save'} onCancel={props.onDone} />
      <ErrorNote error={error} />
    </form>
  );
}
