import { GatewayError } from '../errors';
import type { AuditChange } from '../ports/audit-log.port';
import { SecretRequiredError, type CatalogueEntry, type CatalogueRepository } from '../ports/catalogue-repository.port';
import { CatalogueAdministration } from './catalogue-administration';
import { CLI_AUDIT_CONTEXT } from './key-administration';
import { envReferencePolicy } from './env-reference-policy';

/** Entries in memory; `sealable: false` refuses literal keys as a store without GATEWAY_SECRET does. */
function memoryCatalogue(entries: CatalogueEntry[], sealable = true) {
  const audits: AuditChange[] = [];
  const store: CatalogueRepository = {
    entries: async () => entries.map((e) => ({ ...e })),
    putAudited: async (_author, kind, id, body, audit) => {
      if (!sealable && typeof body?.apiKey === 'string' && !body.apiKey.startsWith('env:')) throw new SecretRequiredError('apiKey');
      const i = entries.findIndex((e) => e.kind === kind && e.id === id);
      const row = { kind, id, body, source: 'admin' as const };
      if (i >= 0) entries[i] = row;
      else entries.push(row);
      audits.push(audit);
    },
  };
  return { store, audits, entries };
}

function admin(entries: CatalogueEntry[], opts: { sealable?: boolean; allowedEnv?: string } = {}) {
  const mem = memoryCatalogue(entries, opts.sealable);
  const reloads: number[] = [];
  const changes = { validate: async () => undefined, reload: async () => reloads.push(1) };
  const envPolicy = envReferencePolicy(['env:FILE_KEY'], opts.allowedEnv);
  return { ...mem, reloads, catalogue: new CatalogueAdministration({ store: mem.store, changes, author: CLI_AUDIT_CONTEXT, envPolicy }) };
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: GatewayError) => e.code,
  );

describe('CatalogueAdministration', () => {
  it('shows a literal key and credential headers as (set), an env reference as written', async () => {
    const { catalogue } = admin([
      { kind: 'provider', id: 'a', body: { apiKey: 'sk-secret', options: { headers: { authorization: 'Bearer x' } } }, source: 'file' },
      { kind: 'provider', id: 'b', body: { apiKey: 'env:FILE_KEY' }, source: 'admin' },
    ]);
    const listed = await catalogue.listEntries('provider');
    expect(listed).toEqual([
      { id: 'a', apiKey: '(set)', options: { headers: { authorization: '(set)' } }, source: 'file' },
      { id: 'b', apiKey: 'env:FILE_KEY', source: 'admin' },
    ]);
  });

  it('a put names a group by `name`, records create then update with redacted before/after, and reloads', async () => {
    const { catalogue, audits, reloads } = admin([]);
    expect(await catalogue.putEntry('group', 'g', { models: ['m'], name: 'ignored' })).toEqual({ name: 'g', models: ['m'] });
    await catalogue.putEntry('group', 'g', { models: ['n'] });
    expect(audits.map((a) => [a.action, a.before, a.after])).toEqual([
      ['group.create', null, { name: 'g', models: ['m'] }],
      ['group.update', { name: 'g', models: ['m'] }, { name: 'g', models: ['n'] }],
    ]);
    expect(reloads).toHaveLength(2);
  });

  it('(set) keeps the stored key; without one to keep it is refused', async () => {
    const { catalogue, entries } = admin([{ kind: 'provider', id: 'p', body: { apiKey: 'sk-old' }, source: 'file' }]);
    await catalogue.putEntry('provider', 'p', { apiKey: '(set)', baseUrl: 'https://x' });
    expect(entries[0]!.body).toEqual({ apiKey: 'sk-old', baseUrl: 'https://x' });
    expect(await codeOf(catalogue.putEntry('provider', 'q', { apiKey: '(set)' }))).toBe('invalid_api_key');
  });

  it('refuses a bad id, a non-object body, an env variable admins may not name, and a literal key the store cannot seal', async () => {
    const { catalogue } = admin([], { sealable: false, allowedEnv: 'OPEN_*' });
    expect(await codeOf(catalogue.putEntry('model', '-bad', {}))).toBe('invalid_id');
    expect(await codeOf(catalogue.putEntry('model', 'm', []))).toBe('invalid_body');
    expect(await codeOf(catalogue.putEntry('provider', 'p', { apiKey: 'env:GATEWAY_SECRET' }))).toBe('env_not_allowed');
    expect(await codeOf(catalogue.putEntry('provider', 'p', { apiKey: 'env:OTHER' }))).toBe('env_not_allowed');
    expect(await codeOf(catalogue.putEntry('provider', 'p', { apiKey: 'env:OPEN_KEY' }))).toBe('resolved');
    expect(await codeOf(catalogue.putEntry('provider', 'p', { apiKey: 'sk-literal' }))).toBe('secret_required');
  });

  it('deleting an entry that does not exist is a 404 naming its kind; an existing one is recorded and reloaded', async () => {
    const { catalogue, audits, reloads } = admin([{ kind: 'model', id: 'm', body: { provider: 'p' }, source: 'file' }]);
    expect(await codeOf(catalogue.deleteEntry('model', 'nope'))).toBe('model_not_found');
    await catalogue.deleteEntry('model', 'm');
    expect(audits.map((a) => [a.action, a.before, a.after])).toEqual([['model.delete', { id: 'm', provider: 'p' }, null]]);
    expect(reloads).toHaveLength(1);
    expect(await codeOf(catalogue.deleteEntry('model', 'm'))).toBe('model_not_found');
  });

  it('a change the whole config refuses is neither stored nor applied', async () => {
    const mem = memoryCatalogue([]);
    const refused = new GatewayError('invalid_request', 'no', { code: 'invalid_config_change' });
    const changes = { validate: () => Promise.reject(refused), reload: jest.fn() };
    const catalogue = new CatalogueAdministration({ store: mem.store, changes, author: CLI_AUDIT_CONTEXT });
    await expect(catalogue.putEntry('model', 'm', {})).rejects.toBe(refused);
    expect(mem.entries).toEqual([]);
    expect(changes.reload).not.toHaveBeenCalled();
  });
});
