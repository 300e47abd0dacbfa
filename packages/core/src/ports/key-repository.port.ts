/** Per-key limits; null = the gateway-wide default (`limits` in the config file) applies. */
export interface KeyLimits {
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
  concurrentStreams: number | null;
}

/** What an admin sets on a key besides its account and group. */
export interface KeySettings {
  name: string | null;
  /** after this instant the key is refused with `key_expired` */
  expiresAt: Date | null;
  /** model ids the key may call, a subset of its group's; null = the whole group */
  models: string[] | null;
  limits: KeyLimits;
}

export const NO_KEY_LIMITS: KeyLimits = Object.freeze({ requestsPerMinute: null, tokensPerMinute: null, concurrentStreams: null });

export interface ApiKeyRecord extends KeySettings {
  id: string;
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
  group: string;
  hash: string;
  prefix: string;
}

export interface KeyRepository {
  findKeyByHash(hash: string): Promise<(ApiKeyRecord & { hash: string }) | null>;
  createAccount(id: string, name?: string): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  listAccounts(): Promise<Account[]>;
  /** Stores the hash of a key; the clear key is never persisted. Idempotent on the hash. */
  createKey(input: NewKey): Promise<ApiKeyRecord>;
  getKey(id: string): Promise<ApiKeyRecord | null>;
  /** Changes the given settings of a key (absent fields are kept); null when there is no such key. */
  updateKey(id: string, patch: Partial<KeySettings>): Promise<ApiKeyRecord | null>;
  listKeys(accountId?: string): Promise<ApiKeyRecord[]>;
  revokeKey(id: string): Promise<boolean>;
}
