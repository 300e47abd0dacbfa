/** HS256 JWT verification as Kling's API gateway does it (the fake's side only; the adapter signs its own). */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type JwtVerdict =
  { ok: true; payload: Record<string, unknown> } | { ok: false; why: 'malformed' | 'signature' | 'issuer' | 'not_yet_valid' | 'expired' };

const b64url = (b: Buffer) => b.toString('base64url');

/** Checks signature, `alg`, `iss`, `nbf` and `exp` (seconds) against `nowSeconds`. */
export function verifyHs256(token: string, secret: string, issuer: string, nowSeconds: number): JwtVerdict {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, why: 'malformed' };
  let header: Record<string, unknown>;
  let payload: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return { ok: false, why: 'malformed' };
  }
  if (header.alg !== 'HS256') return { ok: false, why: 'malformed' };
  const expected = Buffer.from(b64url(createHmac('sha256', secret).update(`${parts[0]}.${parts[1]}`).digest()));
  const given = Buffer.from(parts[2]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, why: 'signature' };
  if (payload.iss !== issuer) return { ok: false, why: 'issuer' };
  if (typeof payload.nbf === 'number' && payload.nbf > nowSeconds) return { ok: false, why: 'not_yet_valid' };
  if (typeof payload.exp !== 'number' || payload.exp <= nowSeconds) return { ok: false, why: 'expired' };
  return { ok: true, payload };
}
