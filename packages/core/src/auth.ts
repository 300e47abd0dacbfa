import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeyLimits, KeyRole, TaskScope } from './ports/key-repository.port';

/** Who is calling: resolved from an API key. */
export interface Principal {
  accountId: string;
  keyId: string;
  group: string;
  /** absent only on principals built outside `authenticate` (tests); routes read it through `roleOf` */
  role?: KeyRole;
  /** the key's model allowlist (a subset of its group); absent or null = the whole group */
  models?: readonly string[] | null;
  /** the key's own limits; absent or null fields = the gateway-wide defaults */
  limits?: KeyLimits;
  /** which tasks the key sees: absent or `account` = its account's, `own` = those it created (task-scope.ts) */
  tasks?: TaskScope;
  /** the key's own guardrail ids, run after its group's (guardrails/guardrail.ts); absent = none */
  guardrails?: readonly string[] | null;
  /** the key's MCP allow-list (`server`, `server__*`, `server__tool`), within its group's; absent or null = the group's */
  mcp?: readonly string[] | null;
  /** the batch whose line this call is (the batch runner calls as the key that created it): its usage rows name it */
  batchId?: string;
}

/** Keys are long random strings, so a SHA-256 digest is a safe lookup hash; they are never stored in clear. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests. */
export function digestsEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a, 'hex');
  const bb = Buffer.from(b, 'hex');
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

export function generateApiKey(): string {
  return `sk-${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x')}`;
}

/**
 * Random bytes for ids (never for secrets: keys and signing secrets take randomBytes directly), drawn from a 4 KB pool
 * so a request's few ids cost one entropy read per hundred or so requests instead of one each.
 */
let idPool = Buffer.alloc(0);
let idPoolAt = 0;
function idBytes(n: number): Buffer {
  if (idPoolAt + n > idPool.length) {
    idPool = randomBytes(Math.max(4096, n));
    idPoolAt = 0;
  }
  idPoolAt += n;
  return idPool.subarray(idPoolAt - n, idPoolAt);
}

/** Lowercase letters and digits only: the @google/genai SDK keeps only [a-z0-9] of a file id. */
export function newId(prefix = '', bytes = 12): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const raw = idBytes(bytes * 2);
  let out = '';
  for (const byte of raw.subarray(0, bytes * 2)) out += alphabet.charAt(byte % 36);
  return prefix + out;
}

/** A key's id is shown to every key of its account (/v1/usage), so it is random and says nothing about the key. */
export function newKeyId(): string {
  return newId('key_');
}

/**
 * Credentials this process hands its own calls on behalf of a key (a batch line sent through the gateway's own
 * route): a random token per call, resolvable only here and only until released. Nothing outside the process ever
 * holds one.
 */
export class DelegatedKeys {
  private readonly issued = new Map<string, { keyId: string; batchId: string }>();

  issue(keyId: string, batchId: string): string {
    const token = `sk-delegated-${randomBytes(24).toString('hex')}`;
    this.issued.set(token, { keyId, batchId });
    return token;
  }

  resolve(token: string | undefined): { keyId: string; batchId: string } | undefined {
    return token === undefined ? undefined : this.issued.get(token);
  }

  release(token: string): void {
    this.issued.delete(token);
  }
}
