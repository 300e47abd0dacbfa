import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals a compacted conversation into `encrypted_content`: deflated JSON under AES-256-GCM, bound to
 * the account as associated data. The caller can neither read nor alter it, and another account's
 * token does not open. Layout: base64url(version | iv | tag | ciphertext).
 */
export class CompactionSealer {
  private readonly key: Buffer;
  /** what opens a token: this secret's key, then the previous secret's (GATEWAY_SECRET_PREVIOUS, during a rotation) */
  private readonly openKeys: Buffer[];

  constructor(secret: string | Buffer, previous?: string | Buffer) {
    if (!secret || secret.length < 16) throw new Error('The compaction secret must be at least 16 characters.');
    const keyOf = (s: string | Buffer) => createHash('sha256').update('gateway/responses/compaction\0').update(s).digest();
    this.key = keyOf(secret);
    this.openKeys = previous && previous.length >= 16 ? [this.key, keyOf(previous)] : [this.key];
  }

  seal(payload: unknown, accountId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(accountId, 'utf8'));
    const body = Buffer.concat([cipher.update(deflateRawSync(Buffer.from(JSON.stringify(payload), 'utf8'))), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The payload, or undefined when the token is malformed, altered, or sealed for another account. */
  open(token: string, accountId: string): unknown {
    const raw = Buffer.from(token, 'base64url');
    if (raw.length <= 1 + IV_BYTES + TAG_BYTES || raw[0] !== VERSION) return undefined;
    for (const key of this.openKeys) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(1, 1 + IV_BYTES));
        decipher.setAAD(Buffer.from(accountId, 'utf8'));
        decipher.setAuthTag(raw.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES));
        const plain = Buffer.concat([decipher.update(raw.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
        return JSON.parse(inflateRawSync(plain).toString('utf8'));
      } catch {
        // not this key's: the next one, if any
      }
    }
    return undefined;
  }
}
