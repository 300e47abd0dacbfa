import { useState, type FormEvent } from 'react';
import { ApiError, call } from '../api';
import type { Session } from '../session';
import { Field } from '../components/bits';

/**
 * One field for any key: the admin key opens the admin API, an account's API key the public API of its account. The
 * role is found by asking the gateway (an admin route first), so the page never guesses from the key's shape.
 */
async function roleOf(key: string): Promise<Session> {
  try {
    await call(key, '/admin/accounts');
    return { role: 'admin', key, callKey: null };
  } catch (e) {
    if (!(e instanceof ApiError) || (e.status !== 401 && e.status !== 403)) throw e;
  }
  await call(key, '/v1/models');
  return { role: 'account', key, callKey: key };
}

export function SignIn({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // never rejects: a failure is shown on the page, so its event handler drops the promise (void)
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await roleOf(key.trim()));
    } catch (err) {
      setError(err instanceof ApiError && err.status === 401 ? 'The gateway refused this key.' : (err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="signin">
      <h1>Gateway dashboard</h1>
      <form onSubmit={(e) => void submit(e)}>
        <Field label="API key">
          <input type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} required />
        </Field>
        <button type="submit" disabled={busy || !key.trim()}>
          Sign in
        </button>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <p className="note">The admin key sees every account; an account&apos;s key sees its own. The key is kept for this tab only.</p>
      </form>
    </main>
  );
}
