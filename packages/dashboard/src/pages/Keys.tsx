import { useState } from 'react';
import { getJson, sendJson } from '../api';
import type { Session } from '../session';
import type { Caller } from '../roles';
import { AdminOnly, ErrorNote, Field, time } from '../components/bits';
import { useLoad } from '../components/use-load';
import { EMPTY_KEY_FORM, formOf, keySettings, keyState, type KeyView } from '../key-settings';
import { KeyForm } from './KeyForm';

/** A secret the gateway shows once: a new key's, or a rotated key's new one. */
interface Shown {
  key: string;
  what: string;
}

/**
 * The keys a caller manages: every account's for the platform admin (/admin/keys), the account's own for an account
 * admin (/v1/keys, within what the platform admin granted the account). Create, edit, rotate (account admins: the old
 * secret keeps working for the grace time), revoke; expired and revoked keys are marked apart from active ones.
 */
export function Keys({ session, caller, onUseKey }: { session: Session; caller: Caller; onUseKey: (key: string) => void }) {
  const platform = caller === 'platform';
  const base = platform ? '/admin/keys' : '/v1/keys';
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<KeyView | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const keys = useLoad(
    () => (caller === 'member' ? Promise.resolve([]) : getJson<{ data: KeyView[] }>(session.key, base).then((r) => r.data)),
    [session.key, caller],
  );
  if (caller === 'member') return <AdminOnly what="Keys" />;
  const now = Date.now();
  return (
    <section>
      <h1>Keys</h1>
      <button type="button" onClick={() => (setCreating(true), setEditing(null))} disabled={creating}>
        Create key
      </button>
      {creating && (
        <KeyForm
          label="Create key"
          submit="Create"
          initial={EMPTY_KEY_FORM}
          placeWith={platform ? session.key : undefined}
          onCancel={() => setCreating(false)}
          onSubmit={async (f, place) => {
            const body = { ...keySettings(f, 'create'), ...(platform && { account: place.account.trim(), group: place.group.trim() }) };
            const k = await sendJson<KeyView & { key: string }>(session.key, 'POST', base, body);
            setShown({ key: k.key, what: `The new key of ${k.account}` });
            setCreating(false);
            keys.reload();
          }}
        />
      )}
      {editing && (
        <KeyForm
          key={editing.id}
          label={`Edit key ${editing.name ?? editing.id}`}
          submit="Save"
          initial={formOf(editing)}
          onCancel={() => setEditing(null)}
          onSubmit={async (f) => {
            await sendJson(session.key, 'PATCH', `${base}/${encodeURIComponent(editing.id)}`, keySettings(f, 'edit'));
            setEditing(null);
            keys.reload();
          }}
        />
      )}
      {shown && (
        <div className="panel" role="status">
          <p>{shown.what}, shown this once: copy it now.</p>
          <output aria-label="New key" className="secret">
            {shown.key}
          </output>
          <button type="button" onClick={() => onUseKey(shown.key)} disabled={session.callKey === shown.key}>
            Use this key for Tasks and Playground
          </button>
        </div>
      )}
      <ErrorNote error={keys.error} />
      <table aria-label="Keys">
        <thead>
          <tr>
            <th>Name</th>
            <th>Key</th>
            <th>State</th>
            <th>Role</th>
            {platform && <th>Account</th>}
            <th>Group</th>
            <th>Models</th>
            <th>Limits</th>
            <th>Budget</th>
            <th>Expires</th>
            <th>Created</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          {(keys.data ?? []).map((k) => (
            <KeyRow
              key={k.id}
              k={k}
              state={keyState(k, now)}
              platform={platform}
              path={`${base}/${encodeURIComponent(k.id)}`}
              apiKey={session.key}
              onEdit={() => (setEditing(k), setCreating(false))}
              onRotated={(secret, until) => {
                setShown({ key: secret, what: `The new secret of ${k.name ?? k.id} (the old one works until ${until})` });
                keys.reload();
              }}
              onChanged={keys.reload}
            />
          ))}
        </tbody>
      </table>
    </section>
  );
}

const limitsText = (k: KeyView) =>
  [
    k.limits?.requests_per_minute && `${k.limits.requests_per_minute} rpm`,
    k.limits?.tokens_per_minute && `${k.limits.tokens_per_minute} tpm`,
    k.limits?.concurrent_streams && `${k.limits.concurrent_streams} streams`,
  ]
    .filter(Boolean)
    .join(', ') || 'default';

function KeyRow(props: {
  k: KeyView;
  state: ReturnType<typeof keyState>;
  platform: boolean;
  path: string;
  apiKey: string;
  onEdit: () => void;
  onRotated: (secret: string, until: string) => void;
  onChanged: () => void;
}) {
  const { k, state } = props;
  const [confirm, setConfirm] = useState<'revoke' | 'rotate' | null>(null);
  const [grace, setGrace] = useState('3600');
  const [error, setError] = useState<string | null>(null);
  const act = async (fn: () => Promise<void>) => {
    setError(null);
    try {
      await fn();
      setConfirm(null);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const revoke = () =>
    act(async () => {
      await sendJson(props.apiKey, 'DELETE', props.path);
      props.onChanged();
    });
  const rotate = () =>
    act(async () => {
      const r = await sendJson<{ key: string; previous_secret_until: string }>(props.apiKey, 'POST', `${props.path}/rotate`, {
        grace_seconds: Number(grace),
      });
      props.onRotated(r.key, new Date(r.previous_secret_until).toLocaleString());
    });
  return (
    <tr data-key-id={k.id} data-state={state} className={`key-${state}`}>
      <td>{k.name ?? '—'}</td>
      <td>
        <code>{k.prefix}…</code>
      </td>
      <td>
        <span className={`badge badge-${state}`}>{state}</span>
      </td>
      <td>{k.role ?? 'member'}</td>
      {props.platform && <td>{k.account}</td>}
      <td>{k.group}</td>
      <td>{k.models?.join(', ') ?? 'all of the group'}</td>
      <td>{limitsText(k)}</td>
      <td>{k.budget ? `${k.budget.credits_used} / ${k.budget.credit_limit ?? 'unlimited'} (${k.budget.period ?? 'no period'})` : '—'}</td>
      <td>{k.expires_at ? new Date(k.expires_at).toLocaleString() : 'never'}</td>
      <td>{time(Date.parse(k.created_at) / 1000)}</td>
      <td className="row-actions">
        {state !== 'revoked' && confirm === null && (
          <>
            <button type="button" onClick={props.onEdit}>
              Edit
            </button>
            {!props.platform && (
              <button type="button" onClick={() => setConfirm('rotate')}>
                Rotate
              </button>
            )}
            <button type="button" onClick={() => setConfirm('revoke')}>
              Revoke
            </button>
          </>
        )}
        {confirm === 'revoke' && (
          <>
            <button type="button" className="danger" onClick={() => void revoke()}>
              Confirm revoke
            </button>
            <button type="button" onClick={() => setConfirm(null)}>
              Keep
            </button>
          </>
        )}
        {confirm === 'rotate' && (
          <>
            <Field label="Grace seconds">
              <input type="number" min="0" step="1" value={grace} onChange={(e) => setGrace(e.target.value)} />
            </Field>
            <button type="button" className="danger" onClick={() => void rotate()}>
              Confirm rotate
            </button>
            <button type="button" onClick={() => setConfirm(null)}>
              Keep
            </button>
          </>
        )}
        <ErrorNote error={error} />
      </td>
    </tr>
  );
}
