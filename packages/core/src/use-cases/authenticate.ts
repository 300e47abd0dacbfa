import { digestsEqual, hashApiKey, type Principal } from '../auth';
import { GatewayError } from '../errors';
import type { ApiKeyRecord, KeyRepository } from '../ports/key-repository.port';

/**
 * Resolves a raw API key to its principal. An unknown, malformed or revoked key is the same 401 so keys cannot be
 * probed; an expired key says so (`key_expired`), since only its holder can learn that.
 */
export async function authenticate(
  keys: KeyRepository,
  rawKey: string | undefined,
  now: () => Date = () => new Date(),
): Promise<Principal> {
  if (!rawKey)
    throw new GatewayError('unauthenticated', 'Missing API key. Send "Authorization: Bearer sk-...".', { code: 'missing_api_key' });
  if (!/^sk-[\x21-\x7e]{4,200}$/.test(rawKey)) {
    throw new GatewayError('unauthenticated', 'Malformed API key: keys start with "sk-".', { code: 'invalid_api_key' });
  }
  const hash = hashApiKey(rawKey);
  const record = await keys.findKeyByHash(hash);
  if (!record || !digestsEqual(record.hash, hash) || record.revokedAt) {
    throw new GatewayError('unauthenticated', 'Invalid API key.', { code: 'invalid_api_key' });
  }
  if (record.graceUntil && record.graceUntil.getTime() <= now().getTime()) {
    // a rotated key's old secret after its grace time: as unknown as any other
    throw new GatewayError('unauthenticated', 'Invalid API key.', { code: 'invalid_api_key' });
  }
  return principalOf(record, now);
}

/**
 * The principal of a key known by its id, as it is now (a batch line runs as the key that created the batch): a
 * revoked or expired key is refused as its secret would be.
 */
export async function authenticateKeyId(keys: KeyRepository, keyId: string, now: () => Date = () => new Date()): Promise<Principal> {
  const record = await keys.getKey(keyId);
  if (!record || record.revokedAt) throw new GatewayError('unauthenticated', 'Invalid API key.', { code: 'invalid_api_key' });
  return principalOf(record, now);
}

function principalOf(record: ApiKeyRecord, now: () => Date): Principal {
  if (record.expiresAt && record.expiresAt.getTime() <= now().getTime()) {
    throw new GatewayError('unauthenticated', `This API key expired at ${record.expiresAt.toISOString()}.`, { code: 'key_expired' });
  }
  return {
    accountId: record.accountId,
    keyId: record.id,
    group: record.group,
    role: record.role,
    models: record.models,
    limits: record.limits,
    ...(record.mcp ? { mcp: record.mcp } : {}),
    ...(record.tasks === 'own' ? { tasks: 'own' as const } : {}),
    ...(record.guardrails?.length ? { guardrails: record.guardrails } : {}),
  };
}
