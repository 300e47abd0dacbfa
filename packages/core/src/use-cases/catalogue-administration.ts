/** The catalogue's providers, models and groups as the admin API and the CLI change them: checked, audited, applied. */
import { GatewayError, invalid } from '../errors';
import type { AuditContext } from '../ports/audit-log.port';
import {
  SecretRequiredError,
  type CatalogueChanges,
  type CatalogueEntryKind,
  type CatalogueRepository,
} from '../ports/catalogue-repository.port';
import { credentialHeaders, mapCredentialHeaders } from '../provider-credentials';
import type { EnvReferencePolicy } from './env-reference-policy';

const ID = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$/;

/** What an admin reads back instead of a key: keys are write-only. */
const SET = '(set)';

type Body = Record<string, unknown>;

/** Secrets never leave through the admin API: a provider's apiKey and header values show as set or not. */
function redact(kind: CatalogueEntryKind, body: Body): Body {
  if (kind !== 'provider') return body;
  const headersSet = mapCredentialHeaders(body, () => SET);
  if (body.apiKey === undefined) return headersSet;
  const key = String(body.apiKey);
  return { ...headersSet, apiKey: key.startsWith('env:') ? key : SET };
}

const named = (kind: CatalogueEntryKind, id: string) => ({ [kind === 'group' ? 'name' : 'id']: id });
const view = (kind: CatalogueEntryKind, id: string, body: Body) => ({ ...named(kind, id), ...redact(kind, body) });

export interface CatalogueAdministrationDeps {
  store: CatalogueRepository;
  /** checks a change against the whole config and applies it; the CLI's account and key commands pass one that refuses */
  changes: CatalogueChanges;
  author: AuditContext;
  /** which `env:NAME` references an admin may write (absent: any) */
  envPolicy?: EnvReferencePolicy;
}

export class CatalogueAdministration {
  constructor(private readonly deps: CatalogueAdministrationDeps) {}

  /** The same entries, recording `author` as the author of their changes. */
  as(author: AuditContext): CatalogueAdministration {
    return new CatalogueAdministration({ ...this.deps, author });
  }

  async listEntries(kind: CatalogueEntryKind) {
    return (await this.deps.store.entries())
      .filter((e) => e.kind === kind && e.body !== null)
      .map((e) => ({ ...view(kind, e.id, e.body!), source: e.source }));
  }

  /** Validates the change against the whole config, stores it, and applies it here at once (elsewhere on the next poll). */
  async putEntry(kind: CatalogueEntryKind, id: string, body: unknown) {
    if (!ID.test(id)) throw invalid('invalid_id', `Invalid ${kind} id.`, 'id');
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw invalid('invalid_body', `The ${kind} must be a JSON object.`);
    const clean = { ...(body as Body) };
    delete clean.id;
    delete clean.name;
    delete clean.source;
    if (kind === 'provider') await this.checkApiKey(id, clean);
    await this.deps.changes.validate(kind, id, clean);
    // read before the transaction: the embedded store has one connection, which the transaction holds
    const before = await this.entryView(kind, id);
    const after = view(kind, id, clean);
    const action = `${kind}.${before ? 'update' : 'create'}`;
    try {
      await this.deps.store.putAudited(this.deps.author, kind, id, clean, {
        action,
        target: { type: kind, id },
        accountId: null,
        before,
        after,
      });
    } catch (e) {
      if (e instanceof SecretRequiredError) throw secretRequired(e.field);
      throw e;
    }
    await this.deps.changes.reload();
    return after;
  }

  async deleteEntry(kind: CatalogueEntryKind, id: string) {
    const before = await this.entryView(kind, id);
    if (!before) throw new GatewayError('not_found', `No ${kind} "${id.slice(0, 128)}".`, { code: `${kind}_not_found` });
    await this.deps.changes.validate(kind, id, null);
    const audit = { action: `${kind}.delete`, target: { type: kind, id }, accountId: null, before, after: null };
    await this.deps.store.putAudited(this.deps.author, kind, id, null, audit);
    await this.deps.changes.reload();
  }

  /** An entry as the admin API shows it (secrets redacted), or null when there is none. */
  private async entryView(kind: CatalogueEntryKind, id: string) {
    const e = (await this.deps.store.entries()).find((x) => x.kind === kind && x.id === id && x.body !== null);
    return e ? view(kind, id, e.body!) : null;
  }

  private async storedProvider(id: string) {
    return (await this.deps.store.entries()).find((e) => e.kind === 'provider' && e.id === id)?.body;
  }

  /** `(set)` (a body read back and sent again) keeps the stored key; `env:NAME` must be a variable admins may name. */
  private async checkApiKey(id: string, body: Body) {
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
  private async keepStoredHeaders(id: string, body: Body) {
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
