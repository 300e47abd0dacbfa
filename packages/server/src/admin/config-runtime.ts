import {
  CatalogueSync,
  invalid,
  type CatalogueChanges,
  type CatalogueEntry,
  type CatalogueEntryKind,
  type McpServerChanges,
  type McpServerRepository,
  type RegisteredMcpServer,
} from '@gateway/core';
import type { CatalogueSettings } from '@gateway/store-postgres';
import { buildConfig, ConfigError, type GatewayConfig, type GatewayConfigFile, type Variables } from '../config';
import type { Logger } from '@gateway/observability';
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

/** The file's guardrails as an import audits them: their definitions and the groups that run them (null: none). */
function fileGuardrails(file: GatewayConfigFile) {
  const groups = file.groups.filter((g) => g.guardrails?.length).map((g) => [g.name, g.guardrails]);
  return file.guardrails?.length || groups.length ? { definitions: file.guardrails ?? [], groups: Object.fromEntries(groups) } : null;
}

/**
 * Entries and settings back into a config document. Keys, guardrails and the single sign-on mapping always come from this
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
  if (file.guardrails) doc.guardrails = file.guardrails; // like keys: from this instance's file
  if (file.mcpServers) doc.mcpServers = file.mcpServers; // the MCP servers, like keys: from this instance's file
  if (file.mcpOAuth) doc.mcpOAuth = file.mcpOAuth;
  for (const e of entries) {
    if (e.body === null) continue;
    (doc[SECTION[e.kind]] as unknown as Array<Record<string, unknown>>).push({ [KEY[e.kind]]: e.id, ...e.body });
  }
  return doc;
}

/** What a reload reads beside the entries: the file's settings the database keeps, and the registered MCP servers. */
interface StoredSettings {
  catalogue: CatalogueSettings | null;
  mcpServers: RegisteredMcpServer[];
}

/**
 * The live configuration: the database's catalogue (seeded from the file when its content changed, changed through
 * the admin API), reloaded by every instance when the store's version moves (CatalogueSync). Use cases hold the
 * catalogue, the limits, the breaker options and the provider registry objects, which are updated in place, so a
 * change applies without a restart.
 */
export class ConfigRuntime extends CatalogueSync<StoredSettings, GatewayConfig> implements CatalogueChanges {
  constructor(
    private readonly store: Repositories['config'],
    private readonly live: GatewayConfig,
    providers: ProviderRegistry,
    private readonly env: { dataDir: string; variables?: Variables },
    logger: Logger,
    mcpServers: McpServerRepository,
  ) {
    super(
      {
        // the registered MCP servers move the same version as the catalogue, so they are read with it
        async state() {
          const { version, settings } = await store.state();
          return { version, settings: { catalogue: settings, mcpServers: await mcpServers.list() } };
        },
        entries: () => store.entries(),
      },
      {
        build: (label, entries, s) =>
          buildConfig(label, documentOf(entries, live.file, s?.catalogue ?? null), env.variables, s?.mcpServers),
        check: (candidate) => providers.check(candidate),
        async apply(next) {
          // Providers first: only changed entries are rebuilt, and a failure leaves everything as it was.
          await providers.prepare(next);
          providers.apply(next);
          live.catalogue.replace(next.catalogue.all(), next.catalogue.groupsList());
          live.guardrails.replace(next.file.guardrails ?? [], next.file.groups);
          Object.assign(live.limits, next.limits);
          Object.assign(live.circuitBreaker, next.circuitBreaker);
          Object.assign(live.mcp, next.mcp); // the MCP gateway reads the groups' lists from this object
          live.file = next.file;
        },
      },
      (level, message, fields) => logger.log(level, message, fields),
    );
  }

  /** Start-up: imports the file if its content changed since the last import (one line when it does), then loads. */
  async bootstrap(): Promise<void> {
    // the file as written: env references are stored as references, never as the values they resolve to
    const written = this.live.written;
    const r = await this.store.importFile({
      entries: fileEntries(written),
      settings: fileSettings(written),
      guardrails: fileGuardrails(written),
      source: this.live.source,
    });
    const fields = { source: this.live.source, hash: r.hash, previousHash: r.previousHash ?? undefined };
    if (r.imported) {
      const { added, changed, removed, adminEditsReplaced } = r;
      this.log('info', 'config file imported', { ...fields, added, changed, removed, adminEditsReplaced });
    } else this.log('info', 'config file unchanged since its last import; serving the database catalogue', fields);
    await this.reload({ strict: true });
  }

  /** Checks a change against everything else; throws invalid_config_change naming the field. */
  override async validate(kind: CatalogueEntryKind, id: string, body: Record<string, unknown> | null): Promise<void> {
    await configProblem(() => super.validate(kind, id, body));
  }

  /** Checks the registered MCP servers after a change against the whole config (a group's list naming one keeps it). */
  async validateMcp(registered: readonly RegisteredMcpServer[]): Promise<void> {
    await configProblem(async () => {
      const { catalogue } = (await this.source.state()).settings!;
      buildConfig('admin change', documentOf(await this.source.entries(), this.live.file, catalogue), this.env.variables, registered);
    });
  }

  /** The MCP servers' view of this runtime (McpServerAdministration). */
  readonly mcpChanges: McpServerChanges = { validate: (r) => this.validateMcp(r), reload: () => this.reload() };
}

/** A config error of an admin change is the admin's: invalid_config_change naming the field. */
async function configProblem(check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (e) {
    if (e instanceof ConfigError) throw invalid('invalid_config_change', e.message.replace(/^Invalid gateway config admin change: /, ''));
    throw e;
  }
}
