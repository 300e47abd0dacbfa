/**
 * The signed-in key lives in sessionStorage only: gone when the tab closes, never in a URL, a cookie or localStorage.
 * An admin may also hold an account key (`callKey`) for the pages that call the public API (Tasks, Playground),
 * because the admin key is not an API key.
 */
export type Role = 'admin' | 'account';

export interface Session {
  role: Role;
  key: string;
  /** the API key the public-API pages use: the account key itself, or one an admin chose */
  callKey: string | null;
  /** signed in with single sign-on: the gateway's session cookie is the credential, `key` carries its CSRF token */
  sso?: { subject: string; accountRole: 'admin' | 'member' | null };
}

/**
 * A single sign-on session's stand-in for a key: api.ts sends it as the X-CSRF-Token header with the session cookie
 * (HttpOnly, so this page never holds the session itself) instead of an Authorization header.
 */
const SSO_PREFIX = 'sso-csrf:';
export const ssoKey = (csrfToken: string) => SSO_PREFIX + csrfToken;
export const csrfTokenOf = (key: string): string | null => (key.startsWith(SSO_PREFIX) ? key.slice(SSO_PREFIX.length) : null);

/** What the gateway's /sso/session answers. */
export interface SsoSessionBody {
  subject: string;
  platform_admin: boolean;
  account: string | null;
  role: 'admin' | 'member' | null;
  csrf_token: string;
}

export const ssoSession = (b: SsoSessionBody): Session => ({
  role: b.platform_admin ? 'admin' : 'account',
  key: ssoKey(b.csrf_token),
  callKey: null,
  sso: { subject: b.subject, accountRole: b.role },
});

/** Signing out of a single sign-on session ends it on the gateway too (its cookie then opens nothing). */
export async function endSession(s: Session): Promise<void> {
  const csrf = csrfTokenOf(s.key);
  if (csrf === null) return;
  await fetch('/sso/logout', { method: 'POST', headers: { 'X-CSRF-Token': csrf }, credentials: 'same-origin' }).catch(() => undefined);
}

const STORE = 'gateway.dashboard.session';

export function loadSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(STORE);
    if (!raw) return null;
    const s = JSON.parse(raw) as Session;
    return s && (s.role === 'admin' || s.role === 'account') && typeof s.key === 'string' ? s : null;
  } catch {
    return null;
  }
}

export function saveSession(s: Session | null): void {
  if (s) sessionStorage.setItem(STORE, JSON.stringify(s));
  else sessionStorage.removeItem(STORE);
}

/** `sk-AbCd…`: enough to recognise a key on screen without showing it. */
export const keyHint = (key: string) => `${key.slice(0, 7)}…`;
