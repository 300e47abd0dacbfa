import { useState } from 'react';
import { getJson } from '../api';
import { ErrorNote, Field, SaveOrCancel } from '../components/bits';
import { useLoad, useSubmit } from '../components/use-load';
import type { KeyForm as Form } from '../key-settings';

/**
 * The settings of a key (name, role, expiry, allowlist, budget, rate limits), to create or edit one. The platform
 * admin also names the account and group of a new key; an account admin's keys are its own account's.
 */
export function KeyForm(props: {
  label: string;
  initial: Form;
  /** the platform admin's key, for a new key's account and group pickers */
  placeWith?: string;
  submit: string;
  onSubmit: (f: Form, place: { account: string; group: string }) => Promise<void>;
  onCancel: () => void;
}) {
  const [f, setF] = useState(props.initial);
  const [place, setPlace] = useState({ account: '', group: '' });
  const adminKey = props.placeWith;
  const options = useLoad(
    () =>
      adminKey
        ? Promise.all([
            getJson<{ data: Array<{ id: string }> }>(adminKey, '/admin/accounts'),
            getJson<{ data: Array<{ name: string }> }>(adminKey, '/admin/groups'),
          ])
        : Promise.resolve(null),
    [adminKey],
  );
  const set = (k: keyof Form) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  const { error, submit } = useSubmit(() => props.onSubmit(f, place));
  return (
    <form className="panel form" onSubmit={(e) => void submit(e)} aria-label={props.label}>
      <Field label="Name">
        <input value={f.name} onChange={set('name')} maxLength={200} />
      </Field>
      {adminKey && (
        <>
          <Field label="Account">
            <input value={place.account} onChange={(e) => setPlace({ ...place, account: e.target.value })} list="accounts" required />
          </Field>
          <Field label="Group">
            <input value={place.group} onChange={(e) => setPlace({ ...place, group: e.target.value })} list="groups" required />
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
        </>
      )}
      <Field label="Role">
        <select value={f.role} onChange={set('role')}>
          <option value="member">member (calls models)</option>
          <option value="admin">admin (manages the account)</option>
        </select>
      </Field>
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
      <Field label="Requests per minute">
        <input type="number" min="1" step="1" value={f.rpm} onChange={set('rpm')} placeholder="default" />
      </Field>
      <Field label="Tokens per minute">
        <input type="number" min="1" step="1" value={f.tpm} onChange={set('tpm')} placeholder="default" />
      </Field>
      <Field label="Concurrent streams">
        <input type="number" min="1" step="1" value={f.streams} onChange={set('streams')} placeholder="default" />
      </Field>
      <SaveOrCancel save={props.submit} onCancel={props.onCancel} />
      <ErrorNote error={error} />
    </form>
  );
}
