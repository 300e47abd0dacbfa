import { useState } from 'react';
import { getJson, sendJson } from '../api';
import type { Session } from '../session';
import { AdminOnly, ErrorNote, time } from '../components/bits';
import { useLoad } from '../components/use-load';
import { CreateKeyForm, type CreatedKey } from './CreateKeyForm';

export interface KeyView {
  id: string;
  account: string;
  group: string;
  name: string | null;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
  expires_at: string | null;
  models: string[] | null;
  budget: { credit_limit: number; period: string; credits_used: number } | null;
}

export function Keys({ session, onUseKey }: { session: Session; onUseKey: (key: string) => void }) {
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const keys = useLoad(
    () => (session.role === 'admin' ? getJson<{ data: KeyView[] }>(session.key, '/admin/keys').then((r) => r.data) : Promise.resolve([])),
    [session.key],
  );
  if (session.role !== 'admin') return <AdminOnly what="Keys" />;
  return (
    <section>
      <h1>Keys</h1>
      <button type="button" onClick={() => setCreating(true)} disabled={creating}>
        Create key
      </button>
      {creating && (
        <CreateKeyForm
          adminKey={session.key}
          onCancel={() => setCreating(false)}
          onCreated={(k) => {
            setCreated(k);
            setCreating(false);
            keys.reload();
          }}
        />
      )}
      {created && (
        <div className="panel" role="status">
          <p>
            The new key of <b>{created.account}</b>, shown this once: copy it now.
          </p>
          <output aria-label="New key" className="secret">
            {created.key}
          </output>
          <button type="button" onClick={() => onUseKey(created.key)} disabled={session.callKey === created.key}>
            Use this key for Tasks and Playground
          </button>
        </div>
      )}
      <ErrorNote error={keys.error} />
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Key</th>
            <th>Account</th>
            <th>Group</th>
            <th>Models</th>
            <th>Budget</th>
            <th>Expires</th>
            <th>Created</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          {(keys.data ?? []).map((k) => (
            <KeyRow key={k.id} k={k} adminKey={session.key} onRevoked={keys.reload} />
          ))}
        </tbody>
      </table>
    </section>
  );
}

function KeyRow({ k, adminKey, onRevoked }: { k: KeyView; adminKey: string; onRevoked: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // never rejects: a failure is shown on the page, so its event handler drops the promise (void)
  const revoke = async () => {
    try {
      await sendJson(adminKey, 'DELETE', `/admin/keys/${encodeURIComponent(k.id)}`);
      onRevoked();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <tr data-key-id={k.id}>
      <td>{k.name ?? '—'}</td>
      <td>
        <code>{k.prefix}…</code>
      </td>
      <td>{k.account}</td>
      <td>{k.group}</td>
      <td>{k.models?.join(', ') ?? 'all of the group'}</td>
      <td>{k.budget ? `${k.budget.credits_used} / ${k.budget.credit_limit} (${k.budget.period})` : '—'}</td>
      <td>{k.expires_at ? new Date(k.expires_at).toLocaleString() : 'never'}</td>
      <td>{time(Date.parse(k.created_at) / 1000)}</td>
      <td>
        {k.revoked_at ? (
          'revoked'
        ) : confirming ? (
          <>
            <button type="button" className="danger" onClick={() => void revoke()}>
              Confirm revoke
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          <button type="button" onClick={() => setConfirming(true)}>
            Revoke
          </button>
        )}
        <ErrorNote error={error} />
      </td>
    </tr>
  );
}
