import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Upstream keys written through the admin API (and webhook signing secrets) are sealed with AES-256-GCM under a key
 * derived from GATEWAY_SECRET, so a database dump or backup does not hand out the upstream accounts. During a
 * rotation GATEWAY_SECRET_PREVIOUS opens what the old secret sealed; `npx gateway secrets:reseal` re-seals it
 * (secret-reseal.ts).
 */
const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What a sealed value is: its own derived key, and the words of the error when it cannot be opened. */
export interface SealPurpose {
  info: string;
  what: string;
}
export const PROVIDER_KEYS: SealPurpose = { info: 'provider-api-keys', what: 'a provider key' };
/** Webhook secrets are sealed like admin-written provider keys (AES-256-GCM, a key derived from the sealing secret). */
export const WEBHOOK_SECRETS: SealPurpose = { info: 'webhook-secrets', what: 'a webhook signing secret' };
/** Header values of MCP servers registered through the admin API (their upstream credentials). */
export const MCP_HEADERS: SealPurpose = { info: 'mcp-server-headers', what: 'an MCP server header' };

/** The secrets that may open a sealed value: the current one first, then the one being rotated out. */
export type SealSecrets = string | undefined | ReadonlyArray<string | undefined>;

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

/** The clear value when `secret` sealed it; undefined otherwise. */
export function openWith(sealed: string, secret: string, purpose: SealPurpose = PROVIDER_KEYS): string | undefined {
  const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret, purpose), raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** The clear value; throws when no secret is given or none of them sealed it. */
export function unseal(sealed: string, secrets: SealSecrets, purpose: SealPurpose = PROVIDER_KEYS): string {
  const list = (Array.isArray(secrets) ? secrets : [secrets]).filter((s): s is string => !!s);
  if (!list.length) throw new Error(`${purpose.what} in the database is encrypted, and GATEWAY_SECRET is not set`);
  for (const secret of list) {
    const plain = openWith(sealed, secret, purpose);
    if (plain !== undefined) return plain;
  }
  throw new Error(
    `${purpose.what} in the database cannot be decrypted with this GATEWAY_SECRET${list.length > 1 ? ' nor GATEWAY_SECRET_PREVIOUS' : ''}`,
  );
}
