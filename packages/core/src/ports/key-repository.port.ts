export interface ApiKeyRecord {
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

export interface KeyRepository {
  findKeyByHash(hash: string): Promise<(ApiKeyRecord & { hash: string }) | null>;
  createAccount(id: string, name?: string): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  listAccounts(): Promise<Account[]>;
  /** Stores the hash of a key; the clear key is never persisted. Idempotent on the hash. */
  createKey(input: { accountId: string; group: string; hash: string; prefix: string }): Promise<ApiKeyRecord>;
  listKeys(accountId?: string): Promise<ApiKeyRecord[]>;
  revokeKey(id: string): Promise<boolean>;
}
