import { createHash, randomBytes } from 'node:crypto';

/**
 * Sessions of the older revisions, stateless: the id carries a digest binding it to the key that opened it, so any
 * instance checks it without shared state, and another key's session is as unknown as a made-up one. A session grants
 * nothing its key does not: every request is authenticated again (a revoked key is refused inside its session).
 */
const digest = (keyId: string, nonce: string) =>
  createHash('sha256').update(`mcp-session:${keyId}:${nonce}`).digest('base64url').slice(0, 22);

export function newSessionId(keyId: string): string {
  const nonce = randomBytes(18).toString('base64url');
  return `${nonce}.${digest(keyId, nonce)}`;
}

export function sessionBelongsTo(sessionId: string, keyId: string): boolean {
  const [nonce, mac, extra] = sessionId.split('.');
  return extra === undefined && !!nonce && !!mac && /^[\w-]{10,64}$/.test(nonce) && mac === digest(keyId, nonce);
}

/** Sessions a client ended with DELETE, remembered by this instance for a while (bounded). */
export class EndedSessions {
  private readonly ended = new Set<string>();
  constructor(private readonly max = 10_000) {}
  end(id: string): void {
    if (this.ended.size >= this.max) this.ended.clear();
    this.ended.add(id);
  }
  has(id: string): boolean {
    return this.ended.has(id);
  }
}
