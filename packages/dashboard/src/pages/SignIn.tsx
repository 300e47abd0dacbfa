import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, call } from '../api';
import { ssoSession, type Session, type SsoSessionBody } from '../session';
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

/**
 * Single sign-on: whether the gateway offers it (an older gateway has no answer: then only keys), and a session it
 * already holds (back from the identity provider), which signs in at once.
 */
async function ssoState(): Promise<{ session: Session | null; enabled: boolean }> {
  const config = await fetch('/sso/config', { cache: 'no-store', credentials: 'omit' }).catch(() => null);
  const enabled = config?.ok ? ((await config.json()) as { enabled?: boolean }).enabled === true : false;
  if (!enabled) return { session: null, enabled };
  const res = await fetch('/sso/session', { cache: 'no-store', credentials: 'same-origin' }).catch(() => null);
  return { session: res?.ok ? ssoSession((await res.json()) as SsoSessionBody) : null, enabled };
}

export function SignIn({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sso, setSso] = useState(false);
  useEffect(() => {
    let live = true;
    void ssoState().then(({ session, enabled }) => {
      if (!live) return;
      if (session) onSignedIn(session);
      else setSso(enabled);
    });
    return () => {
      live = false;
    };
  }, [onSignedIn]);
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
      {sso && (
        <p className="sso">
          <a className="button" href="/sso/login">
            Sign in with SSO
          </a>
        </p>
      )}
    </main>
  );
}
