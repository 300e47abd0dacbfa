import { GatewayError, type Account, type AccountQuota, type ErrorReason, type KeyView } from '@gateway/core';
import { adminPaths, type CatalogueKind } from '@gateway/wire-admin';
import type { AdminOps } from '../cli-commands';
import type { LocalAdminCredential } from './local-credential';

const REASONS: Record<number, ErrorReason> = { 400: 'invalid_request', 401: 'unauthenticated', 403: 'permission_denied', 404: 'not_found' };

type Json = Record<string, any>;

const account = (a: Json): Account => ({ id: a.id, name: a.name, createdAt: new Date(a.createdAt) });
const quota = (q: Json): AccountQuota => ({ accountId: q.account, limit: q.credit_limit, used: q.credits_used, period: q.period ?? null });

/** The running gateway's admin API on loopback, as the CLI's AdminOps: the gateway is the store's only writer. */
export class AdminApiClient implements AdminOps {
  constructor(private readonly credential: LocalAdminCredential) {}

  private async call(method: string, path: string, body?: unknown): Promise<Json> {
    const res = await fetch(`${this.credential.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.credential.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).catch((e: Error) => {
      // e.g. the gateway is stopping: say which one it was
      throw new Error(`The gateway (process ${this.credential.pid}) did not answer at ${this.credential.url}: ${e.message}`);
    });
    const json = (await res.json().catch(() => ({}))) as Json;
    if (!res.ok) {
      const message = typeof json.error?.message === 'string' ? json.error.message : `The gateway answered ${res.status}.`;
      throw new GatewayError(REASONS[res.status] ?? 'internal', message, { code: json.error?.code });
    }
    return json;
  }

  async listAccounts() {
    return ((await this.call('GET', adminPaths.accounts)).data as Json[]).map(account);
  }
  async createAccount(id: unknown, name: unknown) {
    return account(await this.call('POST', adminPaths.accounts, { id, name }));
  }
  async updateAccount(id: string, body: unknown) {
    return account(await this.call('PATCH', adminPaths.account(id), body));
  }
  async listKeys(accountId?: string) {
    return (await this.call('GET', adminPaths.keys(accountId))).data as KeyView[];
  }
  async createKey(body: unknown) {
    return (await this.call('POST', adminPaths.keys(), body)) as KeyView & { key: string };
  }
  async updateKey(id: string, body: unknown) {
    return (await this.call('PATCH', adminPaths.key(id), body)) as KeyView;
  }
  async revokeKey(id: string) {
    await this.call('DELETE', adminPaths.key(id));
  }
  async getQuota(accountId: string) {
    return quota(await this.call('GET', adminPaths.quota(accountId)));
  }
  async setQuota(accountId: string, limit: unknown, period?: unknown) {
    // NaN (an unparsable CLI argument) has no JSON form: send a string so the gateway refuses it with its own message
    const credit_limit = typeof limit === 'number' && Number.isNaN(limit) ? 'NaN' : limit;
    return quota(await this.call('PUT', adminPaths.quota(accountId), { credit_limit, period }));
  }
  async listEntries(kind: CatalogueKind) {
    return (await this.call('GET', adminPaths.catalogue(kind))).data as Json[];
  }
  async putEntry(kind: CatalogueKind, id: string, body: unknown) {
    return this.call('PUT', adminPaths.entry(kind, id), body);
  }
  async deleteEntry(kind: CatalogueKind, id: string) {
    await this.call('DELETE', adminPaths.entry(kind, id));
  }
}
