/** What a single sign-on session may do: the identity provider's claim mapped through the config file's roles. */
export type SsoGrant = { platformAdmin: true } | { platformAdmin: false; accountId: string; role: 'admin' | 'member'; group: string };

export interface SsoSession {
  subject: string;
  /** the role claim's values at sign-in: each use maps them again (the mapping may have changed since) */
  claim: string[];
  /** what the claim mapped to at sign-in */
  grant: SsoGrant;
  expiresAt: Date;
}

/** A sign-in under way: what the callback needs to finish it (PKCE verifier, nonce). */
export interface SsoLogin {
  codeVerifier: string;
  nonce: string;
}

/** Dashboard sessions and sign-ins under way, by their secret token (state); an expired one is never answered. */
export interface SsoSessionStore {
  startLogin(state: string, login: SsoLogin, ttlMs: number): Promise<void>;
  /** the sign-in under this state, taken once: a second call answers null */
  takeLogin(state: string): Promise<SsoLogin | null>;
  createSession(token: string, person: Omit<SsoSession, 'expiresAt'>, ttlMs: number): Promise<SsoSession>;
  findSession(token: string): Promise<SsoSession | null>;
  deleteSession(token: string): Promise<void>;
  /** ends every session of a person; answers how many were open */
  endSessionsOf(subject: string): Promise<number>;
}
