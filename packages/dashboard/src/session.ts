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
