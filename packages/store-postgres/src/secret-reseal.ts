import type { Knex } from 'knex';
import { credentialHeaders } from '@gateway/core';
import { json } from './row-values';
import { isSealed, MCP_HEADERS, openWith, PROVIDER_KEYS, seal, WEBHOOK_SECRETS, type SealPurpose } from './secret-box';

/** What the sealed values of the database are under the secrets given: each value named for the operator. */
export interface SealedInventory {
  /** opened by GATEWAY_SECRET */
  current: string[];
  /** opened only by GATEWAY_SECRET_PREVIOUS: to re-seal */
  previous: string[];
  /** opened by neither */
  unreadable: string[];
}

interface SealedValue {
  what: string;
  sealed: string;
  purpose: SealPurpose;
  /** writes the value sealed anew, inside the re-seal's transaction */
  write(trx: Knex.Transaction, resealed: string): Promise<void>;
}

/**
 * Every sealed value: admin-written provider keys and header values, webhook endpoint secrets, accounts' callback
 * secrets, registered MCP servers' header values.
 */
async function sealedValues(db: Knex | Knex.Transaction): Promise<SealedValue[]> {
  const out: SealedValue[] = [];
  for (const r of await db('config_entries').where({ kind: 'provider' }).select('seq', 'id', 'body')) {
    const body = json<Record<string, unknown>>(r.body);
    if (!body) continue;
    // one object per row, updated in place by each value's write: every write stores the values re-sealed before it
    const save = async (trx: Knex.Transaction) =>
      void (await trx('config_entries')
        .where({ seq: r.seq })
        .update({ body: JSON.stringify(body) }));
    if (typeof body.apiKey === 'string' && isSealed(body.apiKey))
      out.push({
        what: `provider ${r.id}'s apiKey`,
        sealed: body.apiKey,
        purpose: PROVIDER_KEYS,
        write: (trx, v) => ((body.apiKey = v), save(trx)),
      });
    for (const [name, value] of Object.entries(credentialHeaders(body))) {
      if (!isSealed(value)) continue;
      out.push({
        what: `provider ${r.id}'s header ${name}`,
        sealed: value,
        purpose: PROVIDER_KEYS,
        write: (trx, v) => (((body.options as { headers: Record<string, string> }).headers[name] = v), save(trx)),
      });
    }
  }
  for (const r of await db('webhook_endpoints').select('id', 'account_id', 'secret')) {
    if (!isSealed(r.secret)) continue;
    out.push({
      what: `webhook endpoint ${r.id}'s signing secret (account ${r.account_id})`,
      sealed: r.secret,
      purpose: WEBHOOK_SECRETS,
      write: async (trx, v) => void (await trx('webhook_endpoints').where({ id: r.id }).update({ secret: v })),
    });
  }
  for (const r of await db('webhook_account_secrets').select('account_id', 'secret')) {
    if (!isSealed(r.secret)) continue;
    out.push({
      what: `account ${r.account_id}'s callback signing secret`,
      sealed: r.secret,
      purpose: WEBHOOK_SECRETS,
      write: async (trx, v) => void (await trx('webhook_account_secrets').where({ account_id: r.account_id }).update({ secret: v })),
    });
  }
  out.push(...(await mcpHeaderValues(db)));
  return out;
}

async function mcpHeaderValues(db: Knex | Knex.Transaction): Promise<SealedValue[]> {
  const out: SealedValue[] = [];
  for (const r of await db('mcp_servers').select('id', 'headers')) {
    const headers = json<Record<string, string>>(r.headers) ?? {};
    for (const [name, value] of Object.entries(headers)) {
      if (!isSealed(value)) continue;
      out.push({
        what: `MCP server ${r.id}'s header ${name}`,
        sealed: value,
        purpose: MCP_HEADERS,
        // one object per row, as the providers' bodies: each write stores the values re-sealed before it
        write: async (trx, v) =>
          void (await trx('mcp_servers')
            .where({ id: r.id })
            .update({ headers: JSON.stringify(Object.assign(headers, { [name]: v })) })),
      });
    }
  }
  return out;
}

function classify(v: SealedValue, current: string | undefined, previous: string | undefined): keyof SealedInventory {
  if (current && openWith(v.sealed, current, v.purpose) !== undefined) return 'current';
  if (previous && openWith(v.sealed, previous, v.purpose) !== undefined) return 'previous';
  return 'unreadable';
}

/** Which sealed values each secret opens (the start-up check: a warning names what neither opens). */
export async function sealedInventory(db: Knex, secrets: { current?: string; previous?: string }): Promise<SealedInventory> {
  const inventory: SealedInventory = { current: [], previous: [], unreadable: [] };
  for (const v of await sealedValues(db)) inventory[classify(v, secrets.current, secrets.previous)].push(v.what);
  return inventory;
}

/**
 * `npx gateway secrets:reseal`: every value only the previous secret opens is sealed anew under the current one, in
 * one transaction (all or nothing). Values the current secret opens are left; values neither opens are reported.
 * Returns what it found, `previous` being what it re-sealed.
 */
export async function resealSecrets(db: Knex, secrets: { current: string; previous?: string }): Promise<SealedInventory> {
  return db.transaction(async (trx) => {
    const inventory: SealedInventory = { current: [], previous: [], unreadable: [] };
    for (const v of await sealedValues(trx)) {
      const kind = classify(v, secrets.current, secrets.previous);
      inventory[kind].push(v.what);
      if (kind === 'previous') await v.write(trx, seal(openWith(v.sealed, secrets.previous!, v.purpose)!, secrets.current, v.purpose));
    }
    return inventory;
  });
}
