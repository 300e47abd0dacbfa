import { credentialHeaders, GatewayError, invalid, mapCredentialHeaders, type AuditContext } from '@gateway/core';
import { SecretRequiredError, type ConfigKind, type KnexAuditedChanges, type KnexConfigStore } from '@gateway/store-postgres';
import { ConfigError } from '../config';
import type { ConfigRuntime } from './config-runtime';
import type { EnvReferencePolicy } from './env-reference-policy';

const ID = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$/;

/** What an admin reads back instead of a key: keys are write-only. */
const SET = '(set)';

/** Secrets never leave through the admin API: a provider's apiKey and header values show as set or not. */
function redact(kind: ConfigKind, body: Record<string, unknown>): Record<string, unknown> {
  if (kind !== 'provider') return body;
  const headersSet = mapCredentialHeaders(body, () => SET);
  if (body.apiKey === undefined) return headersSet;
  const key = String(body.apiKey);
  return { ...headersSet, apiKey: key.startsWith('env:') ? key : SET };
}

const named = (kind: ConfigKind, id: string) => ({ [kind === 'group' ? 'name' : 'id']: id });

/** How catalogue changes are checked and applied; the CLI's account and key commands pass one that refuses. */
export type CatalogueChanges = Pick<ConfigRuntime, 'validate' | 'reload'>;

export interface CatalogueEntriesDeps {
  store: KnexConfigStore;
  runtime: CatalogueChanges;
  /** each change and its audit record in one transaction */
  audit: KnexAuditedChanges;
  author: AuditContext;
  /** which `env:NAME` references an admin may write (absent: any) */
  envPolicy?: EnvReferencePolicy;
}

/** The catalogue's providers, models and groups as the admin API and the CLI change them: checked, audited, applied. */
export class CatalogueEntries {
  constructor(private readonly deps: CatalogueEntriesDeps) {}

  /** The same entries, recording `author` as the author of their changes. */
  as(author: AuditContext): CatalogueEntries {
    return new CatalogueEntries({ ...this.deps, author });
  }

  async listEntries(kind: ConfigKind) {
    return (await this.deps.store.entries())
      .filter((e) => e.kind === kind && e.body !== null)
      .map((e) => ({ ...named(kind, e.id), ...redact(kind, e.body!), source: e.source }));
  }

  /** Validates the change against the whole config, stores it, and applies it here at once (elsewhere on the next poll). */
  async putEntry(kind: ConfigKind, id: string, body: unknown) {
    if (!ID.test(id)) throw invalid('invalid_id', `Invalid ${kind} id.`, 'id');
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw invalid('invalid_body', `The ${kind} must be a JSON object.`);
    const clean = { ...(body as Record<string, unknown>) };
    delete clean.id;
    delete clean.name;
    delete clean.source;
    if (kind === 'provider') await this.checkApiKey(id, clean);
    await checked(() => this.deps.runtime.validate(kind, id, clean));
    try {
      // read before the transaction: the embedded store has one connection, which the transaction holds
      const before = await this.entryView(kind, id);
      await this.deps.audit.run(this.deps.author, async ({ trx }) => {
        await this.deps.store.put(kind, id, clean, trx);
        const after = { ...named(kind, id), ...redact(kind, clean) };
        const action = `${kind}.${before ? 'update' : 'create'}`;
        return { result: undefined, audit: { action, target: { type: kind, id }, accountId: null, before, after } };
      });
    } catch (e) {
      if (e instanceof SecretRequiredError) throw secretRequired(e.field);
      throw e;
    }
    await this.deps.runtime.reload();
    return { ...named(kind, id), ...redact(kind, clean) };
  }

  async deleteEntry(kind: ConfigKind, id: string) {
    const exists = (await this.deps.store.entries()).some((e) => e.kind === kind && e.id === id && e.body !== null);
    if (!exists) throw new GatewayError('not_found', `No ${kind} "${id.slice(0, 128)}".`, { code: `${kind}_not_found` });
    await checked(() => this.deps.runtime.validate(kind, id, null));
    const before = await this.entryView(kind, id);
    await this.deps.audit.run(this.deps.author, async ({ trx }) => {
      await this.deps.store.put(kind, id, null, trx);
      return { result: undefined, audit: { action: `${kind}.delete`, target: { type: kind, id }, accountId: null, before, after: null } };
    });
    await this.deps.runtime.reload();
  }

  /** An entry as the admin API shows it (secrets redacted), or null when there is none. */
  private async entryView(kind: ConfigKind, id: string) {
    const e = (await this.deps.store.entries()).find((x) => x.kind === kind && x.id === id && x.body !== null);
    return e ? { ...named(kind, id), ...redact(kind, e.body!) } : null;
  }

  private async storedProvider(id: string) {
    return (await this.deps.store.entries()).find((e) => e.kind === 'provider' && e.id === id)?.body;
  }

  /** `(set)` (a body read back and sent again) keeps the stored key; `env:NAME` must be a variable admins may name. */
  private async checkApiKey(id: string, body: Record<string, unknown>) {
    await this.keepStoredHeaders(id, body);
    if (body.apiKey === SET) {
      const current = (await this.storedProvider(id))?.apiKey;
      if (current === undefined) throw invalid('invalid_api_key', `Provider "${id}" has no key to keep; give "apiKey".`, 'apiKey');
      body.apiKey = current;
      return;
    }
    if (body.apiKey !== undefined && typeof body.apiKey !== 'string')
      throw invalid('invalid_api_key', '"apiKey" must be a string.', 'apiKey');
    const ref = /^env:(.*)$/.exec((body.apiKey as string | undefined) ?? '');
    if (ref) this.deps.envPolicy?.check(ref[1]!);
  }

  /** A header value `(set)` (read back and sent again) keeps the stored value, as the apiKey does. */
  private async keepStoredHeaders(id: string, body: Record<string, unknown>) {
    if (!Object.values(credentialHeaders(body)).includes(SET)) return;
    const stored = credentialHeaders(await this.storedProvider(id));
    const missing = Object.entries(credentialHeaders(body)).find(([name, v]) => v === SET && stored[name] === undefined);
    if (missing)
      throw invalid(
        'invalid_header',
        `Provider "${id}" has no header "${missing[0]}" to keep; give its value.`,
        `options.headers.${missing[0]}`,
      );
    Object.assign(
      body,
      mapCredentialHeaders(body, (v, name) => (v === SET ? stored[name] : v)),
    );
  }
}

function secretRequired(field: string): GatewayError {
  return invalid(
    'secret_required',
    field === 'apiKey'
      ? 'A literal "apiKey" is stored encrypted, and this gateway has no GATEWAY_SECRET to encrypt it with: set GATEWAY_SECRET, or give "env:NAME".'
      : `"${field}" may hold a credential and is stored encrypted, and this gateway has no GATEWAY_SECRET to encrypt it with: set GATEWAY_SECRET.`,
    field,
  );
}

async function checked(fn: () => Promise<void>) {
  try {
    await fn();
  } catch (e) {
    if (e instanceof ConfigError) throw invalid('invalid_config_change', e.message.replace(/^Invalid gateway config admin change: /, ''));
    throw e;
  }
}
