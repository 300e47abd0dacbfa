/** Per-key limits; null = the gateway-wide default (`limits` in the config file) applies. */
export interface KeyLimits {
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
  concurrentStreams: number | null;
}

/**
 * What a key may do in its account: `admin` (account admin: keys, webhooks, the account's whole usage and audit) or
 * `member` (calls models, its tasks, its own usage). Which routes need which role is stated on each route's doc.
 */
export type KeyRole = 'admin' | 'member';

/**
 * Which video tasks a key reads, lists and cancels: `account` (every task of its account, the default) or `own` (only
 * the tasks it created itself; another key's task is as missing as an unknown one). task-scope.ts holds the rule.
 */
export type TaskScope = 'account' | 'own';

/** What an admin sets on a key besides its account and group. */
export interface KeySettings {
  name: string | null;
  /** after this instant the key is refused with `key_expired` */
  expiresAt: Date | null;
  /** model ids the key may call, a subset of its group's; null = the whole group */
  models: string[] | null;
  limits: KeyLimits;
  /** MCP servers and tools the key may use (mcp-allow-list.ts), within its group's; absent or null = the group's */
  mcp?: string[] | null;
  /** absent: `account` */
  tasks?: TaskScope;
  /** the key's own guardrail ids, run after its group's (which it cannot drop); absent or null = none */
  guardrails?: string[] | null;
}

export const NO_KEY_LIMITS: KeyLimits = Object.freeze({ requestsPerMinute: null, tokensPerMinute: null, concurrentStreams: null });

export interface ApiKeyRecord extends KeySettings {
  id: string;
  role: KeyRole;
  accountId: string;
  group: string;
  /** first characters of the key, for display only */
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface Account {
  id: string;
  name: string;
  createdAt: Date;
}

export interface NewKey extends Partial<KeySettings> {
  accountId: string;
  /** absent: `admin` (config-file and demo keys keep every power of their account); the API and CLI pass `member` */
  role?: KeyRole;
  group: string;
  hash: string;
  prefix: string;
}

export interface KeyRepository {
  /** A rotated key's previous secret is found too, with `graceUntil`: the instant it stops working. */
  findKeyByHash(hash: string): Promise<(ApiKeyRecord & { hash: string; graceUntil?: Date | null }) | null>;
  createAccount(id: string, name?: string): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  /** Renames an account; null gives it the name it has when created without one (its id). null when there is none. */
  renameAccount(id: string, name: string | null): Promise<Account | null>;
  listAccounts(): Promise<Account[]>;
  /** Stores the hash of a key; the clear key is never persisted. Idempotent on the hash. */
  createKey(input: NewKey): Promise<ApiKeyRecord>;
  getKey(id: string): Promise<ApiKeyRecord | null>;
  /** Changes the given settings of a key (absent fields are kept); null when there is no such key. */
  updateKey(id: string, patch: Partial<KeySettings> & { role?: KeyRole }): Promise<ApiKeyRecord | null>;
  listKeys(accountId?: string): Promise<ApiKeyRecord[]>;
  revokeKey(id: string): Promise<boolean>;
  /** Gives the key a new secret; the current one keeps working until graceUntil. null when there is no active key. */
  rotateKey(id: string, next: { hash: string; prefix: string }, graceUntil: Date): Promise<ApiKeyRecord | null>;
}

/** Keys as an audited change writes them: it also counts an account's live keys, with the account locked for the change. */
export interface KeyChangeRepository extends KeyRepository {
  /** Keys neither revoked nor expired; inside a change the account is locked, so two creations cannot both pass a cap. */
  countLiveKeys(accountId: string): Promise<number>;
  /** Start-up's idempotent writes of the config file's accounts: null when the account existed (one insert decides). */
  createAccountIfMissing(id: string, name?: string): Promise<Account | null>;
  /** Start-up's idempotent write of a config-file key: null when its hash is known (a current secret or one rotated away). */
  createKeyIfUnknown(key: NewKey): Promise<ApiKeyRecord | null>;
}
