import type { Knex } from 'knex';
import { GatewayError, SecretRequiredError, type McpServerRepository, type RegisteredMcpServer } from '@gateway/core';
import { json } from './row-values';
import { MCP_HEADERS, seal, unseal } from './secret-box';

/**
 * MCP servers registered through the admin API, in Postgres (or PGlite). Header values are sealed like webhook
 * secrets (GATEWAY_SECRET, or on the embedded store DATA_DIR's generated secret); a value neither that nor
 * GATEWAY_SECRET_PREVIOUS opens is left out in memory (the server is served without it, the start-up check names
 * it). Every write moves the catalogue's version in its transaction, so each instance reloads the servers.
 */
export class KnexMcpServerStore implements McpServerRepository {
  constructor(
    private readonly db: Knex,
    private readonly opts: { sealKey?: string; previousSealKey?: string } = {},
  ) {}

  private opened(sealed: string): string | undefined {
    try {
      return unseal(sealed, [this.opts.sealKey, this.opts.previousSealKey], MCP_HEADERS);
    } catch {
      return undefined;
    }
  }

  async list(): Promise<RegisteredMcpServer[]> {
    const rows = await this.db('mcp_servers').orderBy([{ column: 'created_at' }, { column: 'id' }]);
    return rows.map((r: Record<string, any>) => {
      const headers: Record<string, string> = {};
      for (const [name, sealed] of Object.entries(json<Record<string, string>>(r.headers) ?? {})) {
        const value = this.opened(sealed);
        if (value !== undefined) headers[name] = value;
      }
      return { id: r.id, url: r.url, headers, pricePerCall: r.price_per_call === null ? null : Number(r.price_per_call) };
    });
  }

  /** The row of a server, its header values sealed (refused without a sealing secret). */
  private rowOf(server: RegisteredMcpServer) {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(server.headers)) {
      if (!this.opts.sealKey) throw new SecretRequiredError(`headers.${name}`);
      headers[name] = seal(value, this.opts.sealKey, MCP_HEADERS);
    }
    return { url: server.url, headers: JSON.stringify(headers), price_per_call: server.pricePerCall };
  }

  async create(server: RegisteredMcpServer): Promise<void> {
    const row = { id: server.id, ...this.rowOf(server) };
    await this.db.transaction(async (trx) => {
      try {
        await trx('mcp_servers').insert(row);
      } catch (e) {
        // the primary key, or the index of ids folded to lowercase
        if ((e as { code?: string }).code === '23505')
          throw new GatewayError('conflict', `An MCP server "${server.id}" (or one equal but for case) exists.`, {
            code: 'mcp_server_exists',
            param: 'id',
          });
        throw e;
      }
      await moveVersion(trx);
    });
  }

  async update(server: RegisteredMcpServer): Promise<boolean> {
    const row = this.rowOf(server);
    return this.db.transaction(async (trx) => {
      const found = await trx('mcp_servers')
        .where({ id: server.id })
        .update({ ...row, updated_at: trx.fn.now() })
        .returning('id');
      if (found.length) await moveVersion(trx);
      return found.length > 0;
    });
  }

  async remove(id: string): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      // returning(): the embedded driver reports no row count for a plain delete
      const gone = (await trx('mcp_servers').where({ id }).del().returning('id')).length > 0;
      if (gone) await moveVersion(trx);
      return gone;
    });
  }
}

/** Every instance reloads its configuration when this version moves (CatalogueSync). */
async function moveVersion(trx: Knex.Transaction): Promise<void> {
  await trx('config_version').where({ id: 1 }).increment('version', 1);
}
