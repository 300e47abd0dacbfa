/** A key as GET /admin/keys and GET /v1/keys show it (never its secret). */
export interface KeyView {
  id: string;
  account: string;
  group: string;
  role?: 'admin' | 'member';
  name: string | null;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
  expires_at: string | null;
  models: string[] | null;
  limits?: { requests_per_minute: number | null; tokens_per_minute: number | null; concurrent_streams: number | null } | null;
  budget: { credit_limit: number | null; period: string | null; credits_used: number } | null;
}

export type KeyState = 'active' | 'expired' | 'revoked';

/** Revoked wins over expired: a revoked key never comes back, an expired one can be given a new expiry. */
export function keyState(k: Pick<KeyView, 'revoked_at' | 'expires_at'>, now: number): KeyState {
  if (k.revoked_at) return 'revoked';
  if (k.expires_at && Date.parse(k.expires_at) <= now) return 'expired';
  return 'active';
}

/** The key form's fields, as text the inputs hold. */
export interface KeyForm {
  name: string;
  role: 'admin' | 'member';
  expires: string;
  models: string;
  budget: string;
  period: string;
  rpm: string;
  tpm: string;
  streams: string;
}

export const EMPTY_KEY_FORM: KeyForm = {
  name: '',
  role: 'member',
  expires: '',
  models: '',
  budget: '',
  period: 'monthly',
  rpm: '',
  tpm: '',
  streams: '',
};

const pad = (n: number) => String(n).padStart(2, '0');
/** An ISO instant as a datetime-local value, in the browser's time zone. */
export function localInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function formOf(k: KeyView): KeyForm {
  const limit = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
  return {
    name: k.name ?? '',
    role: k.role ?? 'member',
    expires: localInput(k.expires_at),
    models: k.models?.join(', ') ?? '',
    budget: limit(k.budget?.credit_limit),
    period: k.budget?.period ?? 'none',
    rpm: limit(k.limits?.requests_per_minute),
    tpm: limit(k.limits?.tokens_per_minute),
    streams: limit(k.limits?.concurrent_streams),
  };
}

const whole = (v: string) => (v.trim() === '' ? null : Number(v));

/**
 * The settings of POST and PATCH /…/keys from the form. An empty field is null on an edit (back to the default: no
 * name, never expires, the whole group, no budget, the gateway's limits) and left out on a creation. The gateway
 * checks every value and names the one it refuses.
 */
export function keySettings(f: KeyForm, mode: 'create' | 'edit'): Record<string, unknown> {
  const models = f.models
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  const all: Record<string, unknown> = {
    name: f.name.trim() || null,
    role: f.role,
    expires_at: f.expires ? new Date(f.expires).toISOString() : null,
    models: models.length ? models : null,
    budget: f.budget.trim() === '' ? null : { credit_limit: Number(f.budget), period: f.period === 'none' ? null : f.period },
    limits:
      f.rpm || f.tpm || f.streams || mode === 'edit'
        ? { requests_per_minute: whole(f.rpm), tokens_per_minute: whole(f.tpm), concurrent_streams: whole(f.streams) }
        : null,
  };
  if (mode === 'edit') return all;
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== null));
}
