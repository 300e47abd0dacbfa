import { useState, type FormEvent } from 'react';
import { getJson, sendJson } from '../api';
import { ErrorNote, Field } from '../components/bits';
import { useLoad } from '../components/use-load';

export interface CreatedKey {
  id: string;
  key: string;
  account: string;
}

/** POST /admin/keys with what the form holds; the gateway validates every field and names the one it refuses. */
function body(f: Record<'name' | 'account' | 'group' | 'expires' | 'models' | 'budget' | 'period', string>) {
  const models = f.models
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  return {
    account: f.account.trim(),
    group: f.group.trim(),
    ...(f.name.trim() && { name: f.name.trim() }),
    ...(f.expires && { expires_at: new Date(f.expires).toISOString() }),
    ...(models.length && { models }),
    ...(f.budget && { budget: { credit_limit: Number(f.budget), period: f.period } }),
  };
}

export function CreateKeyForm(props: { adminKey: string; onCreated: (k: CreatedKey) => void; onCancel: () => void }) {
  const [f, setF] = useState({ name: '', account: '', group: '', expires: '', models: '', budget: '', period: 'monthly' });
  const [error, setError] = useState<string | null>(null);
  const options = useLoad(
    () =>
      Promise.all([
        getJson<{ data: Array<{ id: string }> }>(props.adminKey, '/admin/accounts'),
        getJson<{ data: Array<{ name: string }> }>(props.adminKey, '/admin/groups'),
      ]),
    [props.adminKey],
  );
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      props.onCreated(await sendJson<CreatedKey>(props.adminKey, 'POST', '/admin/keys', body(f)));
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form className="panel form" onSubmit={submit} aria-label="Create key">
      <Field label="Name">
        <input value={f.name} onChange={set('name')} maxLength={200} />
      </Field>
      <Field label="Account">
        <input value={f.account} onChange={set('account')} list="accounts" required />
      </Field>
      <Field label="Group">
        <input value={f.group} onChange={set('group')} list="groups" required />
      </Field>
      <datalist id="accounts">
        {options.data?.[0].data.map((a) => (
          <option key={a.id} value={a.id} />
        ))}
      </datalist>
      <datalist id="groups">
        {options.data?.[1].data.map((g) => (
          <option key={g.name} value={g.name} />
        ))}
      </datalist>
      <Field label="Expires">
        <input type="datetime-local" value={f.expires} onChange={set('expires')} />
      </Field>
      <Field label="Models (comma-separated, empty: the whole group)">
        <input value={f.models} onChange={set('models')} />
      </Field>
      <Field label="Budget (credits)">
        <input type="number" min="0" step="any" value={f.budget} onChange={set('budget')} />
      </Field>
      <Field label="Budget period">
        <select value={f.period} onChange={set('period')}>
          <option value="daily">daily</option>
          <option value="monthly">monthly</option>
          <option value="none">none</option>
        </select>
      </Field>
      <div className="actions">
        <button type="submit">Create</button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
      <ErrorNote error={error} />
    </form>
  );
}
