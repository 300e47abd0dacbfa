import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Upstream keys written through the admin API are sealed with AES-256-GCM under a key derived from
 * GATEWAY_SECRET, so a database dump or backup does not hand out the upstream accounts.
 */
const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What a sealed value is: its own derived key, and the words of the error when it cannot be opened. */
export interface SealPurpose {
  info: string;
  what: string;
}
const PROVIDER_KEYS: SealPurpose = { info: 'provider-api-keys', what: 'a provider key' };

function keyOf(secret: string, purpose: SealPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'gateway-config-store', purpose.info, 32));
}

export const isSealed = (value: string) => value.startsWith(PREFIX);

export function seal(plain: string, secret: string, purpose: SealPurpose = PROVIDER_KEYS): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret, purpose), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The clear value; throws when the secret is missing or is not the one that sealed it. */
export function unseal(sealed: string, secret: string | undefined, purpose: SealPurpose = PROVIDER_KEYS): string {
  if (!secret) throw new Error(`${purpose.what} in the database is encrypted, and GATEWAY_SECRET is not set`);
  const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(secret, purpose), raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new Error(`${purpose.what} in the database cannot be decrypted with this GATEWAY_SECRET`);
  }
}
