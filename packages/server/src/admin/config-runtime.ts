import { invalid, OutageLog, type CatalogueChanges, type CatalogueEntry, type CatalogueEntryKind } from '@gateway/core';
import type { CatalogueSettings } from '@gateway/store-postgres';
import { buildConfig, ConfigError, type GatewayConfig, type GatewayConfigFile, type Variables } from '../config';
import type { Logger } from '../logger';
import type { ProviderRegistry } from '../providers';
import type { Repositories } from '../repositories';

const SECTION: Record<CatalogueEntryKind, 'providers' | 'models' | 'groups'> = { provider: 'providers', model: 'models', group: 'groups' };
const KEY: Record<CatalogueEntryKind, 'id' | 'name'> = { provider: 'id', model: 'id', group: 'name' };

/** The config file's providers, models and groups as store entries. */
export function fileEntries(file: GatewayConfigFile): Array<Omit<CatalogueEntry, 'source'>> {
  return (Object.keys(SECTION) as CatalogueEntryKind[]).flatMap((kind) =>
    (file[SECTION[kind]] as unknown as Array<Record<string, unknown>>).map((item) => {
      const { [KEY[kind]]: id, ...body } = item;
      return { kind, id: String(id), body };
    }),
  );
}

/** The file's settings the database keeps beside the entries. */
export const fileSettings = (file: GatewayConfigFile): CatalogueSettings => ({ limits: file.limits, circuitBreaker: file.circuitBreaker });

/**
 * Entries and settings back into a config document. Keys and the single sign-on mapping always come from this
 * instance's file (keys are bootstrapped into the key store, not the catalogue); settings from the database once a
 * file was imported.
 */
export function documentOf(
  entries: Array<Omit<CatalogueEntry, 'source'>>,
  file: GatewayConfigFile,
  settings: CatalogueSettings | null,
): GatewayConfigFile {
  const { limits, circuitBreaker } = (settings ?? fileSettings(file)) as Pick<GatewayConfigFile, 'limits' | 'circuitBreaker'>;
  const doc: GatewayConfigFile = { providers: [], models: [], groups: [], keys: file.keys, sso: file.sso, limits, circuitBreaker };
  for (const e of entries) {
    if (e.body === null) continue;
    (doc[SECTION[e.kind]] as unknown as Array<Record<string, unknown>>).push({ [KEY[e.kind]]: e.id, ...e.body });
  }
  return doc;
}

/**
 * The live configuration: the database's catalogue (seeded from the file when its content changed, changed through
 * the admin API), reloaded by every instance when the store's version moves. Use cases hold the catalogue, the
 * limits, the breaker options and the provider registry objects, which are updated in place, so a change applies
 * without a restart.
 */
export class ConfigRuntime implements CatalogueChanges {
  private version = -1;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: Repositories['config'],
    private readonly live: GatewayConfig,
    private readonly providers: ProviderRegistry,
    private readonly env: { dataDir: string; variables?: Variables },
    private readonly logger: Logger,
  ) {}

  /** Start-up: imports the file if its content changed since the last import (one line when it does), then loads. */
  async bootstrap(): Promise<void> {
    // the file as written: env references are stored as references, never as the values they resolve to
    const written = this.live.written;
    const r = await this.store.importFile({ entries: fileEntries(written), settings: fileSettings(written), source: this.live.source });
    const fields = { source: this.live.source, hash: r.hash, previousHash: r.previousHash ?? undefined };
    if (r.imported) {
      const { added, changed, removed, adminEditsReplaced } = r;
      this.logger.info('config file imported', { ...fields, added, changed, removed, adminEditsReplaced });
    } else this.logger.info('config file unchanged since its last import; serving the database catalogue', fields);
    await this.reload({ strict: true });
  }

  /** Checks a change against everything else; throws invalid_config_change naming the field. */
  async validate(kind: CatalogueEntryKind, id: string, body: Record<string, unknown> | null): Promise<void> {
    const entries = (await this.store.entries()).filter((e) => !(e.kind === kind && e.id === id));
    entries.push({ kind, id, body, source: 'admin' });
    const { settings } = await this.store.state();
    try {
      const candidate = buildConfig('admin change', documentOf(entries, this.live.file, settings), this.env.variables);
      await this.providers.check(candidate);
    } catch (e) {
      if (e instanceof ConfigError) throw invalid('invalid_config_change', e.message.replace(/^Invalid gateway config admin change: /, ''));
      throw e;
    }
  }

  /** Loads the store's config when its version moved. strict: a broken config throws (start-up) instead of being logged. */
  async reload(opts: { strict?: boolean } = {}): Promise<boolean> {
    const { version, settings } = await this.store.state();
    if (version === this.version) return false;
    const entries = await this.store.entries();
    try {
      const next = buildConfig('database catalogue', documentOf(entries, this.live.file, settings), this.env.variables);
      // Providers first: only changed entries are rebuilt, and a failure leaves everything as it was.
      await this.providers.prepare(next);
      this.providers.apply(next);
      this.live.catalogue.replace(next.catalogue.all(), next.catalogue.groupsList());
      Object.assign(this.live.limits, next.limits);
      Object.assign(this.live.circuitBreaker, next.circuitBreaker);
      this.live.file = next.file;
      this.version = version;
      return true;
    } catch (e) {
      if (opts.strict) throw e;
      this.logger.error('config reload failed; keeping the previous config', { error: (e as Error).message, version });
      this.version = version;
      return false;
    }
  }

  start(pollMs: number): void {
    // the store unreachable fails every poll: logged once at warn when it starts and once when a poll succeeds again
    const outage = new OutageLog((level, message, fields) => this.logger.log(level, message, fields), 'config reload');
    this.timer = setInterval(() => {
      this.reload().then(
        () => outage.succeeded(),
        (e) => outage.failed(e, { pollMs }),
      );
    }, pollMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
