import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { SsoGrant, SsoLogin, SsoSession, SsoSessionStore } from '@gateway/core';

/** Tokens and states are stored by their SHA-256 only: a copy of the table opens no session. */
const digest = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

interface SessionRow {
  subject: string;
  platform_admin: boolean;
  account_id: string | null;
  role: string | null;
  group_name: string | null;
  claim_values: unknown;
  expires_at: Date | string;
}

/** jsonb arrives parsed from pg and as text from some drivers; anything but a list of strings is no claim. */
function claimOf(value: unknown): string[] | null {
  const v: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : null;
}

/**
 * Dashboard sessions and sign-ins under way (migrations 024, 025, 030); expired rows, and rows without a claim, are
 * never answered; expired ones are swept on write.
 */
export class KnexSsoSessions implements SsoSessionStore {
  constructor(
    private readonly knex: Knex,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async startLogin(state: string, login: SsoLogin, ttlMs: number): Promise<void> {
    const now = this.now();
    await this.knex('sso_logins').where('expires_at', '<=', now).delete();
    await this.knex('sso_logins').insert({
      state_hash: digest(state),
      code_verifier: login.codeVerifier,
      nonce: login.nonce,
      expires_at: new Date(now.getTime() + ttlMs),
    });
  }

  /** The sign-in started with this state, removed as it is read: a state works once. */
  async takeLogin(state: string): Promise<SsoLogin | null> {
    const [row] = (await this.knex('sso_logins')
      .where({ state_hash: digest(state) })
      .delete()
      .returning(['code_verifier', 'nonce', 'expires_at'])) as Array<{
      code_verifier: string;
      nonce: string;
      expires_at: Date | string;
    }>;
    if (!row || new Date(row.expires_at) <= this.now()) return null;
    return { codeVerifier: row.code_verifier, nonce: row.nonce };
  }

  async createSession(token: string, person: Omit<SsoSession, 'expiresAt'>, ttlMs: number): Promise<SsoSession> {
    const { subject, claim, grant } = person;
    const now = this.now();
    await this.knex('sso_sessions').where('expires_at', '<=', now).delete();
    const expiresAt = new Date(now.getTime() + ttlMs);
    await this.knex('sso_sessions').insert({
      token_hash: digest(token),
      subject,
      platform_admin: grant.platformAdmin,
      account_id: grant.platformAdmin ? null : grant.accountId,
      role: grant.platformAdmin ? null : grant.role,
      group_name: grant.platformAdmin ? null : grant.group,
      claim_values: JSON.stringify(claim),
      created_at: now,
      expires_at: expiresAt,
    });
    return { subject, claim, grant, expiresAt };
  }

  async findSession(token: string): Promise<SsoSession | null> {
    const row = (await this.knex('sso_sessions')
      .where({ token_hash: digest(token) })
      .andWhere('expires_at', '>', this.now())
      .first()) as SessionRow | undefined;
    const claim = row && claimOf(row.claim_values);
    if (!row || !claim) return null;
    const grant: SsoGrant = row.platform_admin
      ? { platformAdmin: true }
      : { platformAdmin: false, accountId: row.account_id!, role: row.role === 'admin' ? 'admin' : 'member', group: row.group_name! };
    return { subject: row.subject, claim, grant, expiresAt: new Date(row.expires_at) };
  }

  async deleteSession(token: string): Promise<void> {
    await this.knex('sso_sessions')
      .where({ token_hash: digest(token) })
      .delete();
  }

  /** Ends every session of a person (expired ones included); `db`: a transaction the change is audited in. */
  async endSessionsOf(subject: string, db: Knex = this.knex): Promise<number> {
    // counted from the rows returned: drivers disagree on what a bare delete answers inside a transaction
    const ended = (await db('sso_sessions').where({ subject }).delete().returning('subject')) as unknown[];
    return ended.length;
  }
}
