import { SecretRequiredError } from '@gateway/core';
import { KnexMcpServerStore } from './knex-mcp-server-store';
import { resealSecrets, sealedInventory } from './secret-reseal';
import { describeOnTestDatabases } from '../test/test-databases';

const SEAL = 'a-test-sealing-secret-of-32-chars';
const NEXT = 'the-next-sealing-secret-32-chars!';
const TOKEN = 'Bearer mcp-upstream-token-123';

/** Migration 042: registered MCP servers, their header values sealed, each write moving the catalogue's version. */
describeOnTestDatabases((target) => {
  describe(`registered MCP servers on ${target.name}`, () => {
    let db: Awaited<ReturnType<typeof target.open>>;
    beforeAll(async () => {
      db = await target.open();
    });
    afterAll(async () => db.drop());
    const version = async () => Number((await db.knex('config_version').where({ id: 1 }).first()).version);

    it('stores header values sealed, reads them back clear, and moves the version on every write', async () => {
      const store = new KnexMcpServerStore(db.knex, { sealKey: SEAL });
      const v0 = await version();
      await store.create({ id: 'git', url: 'https://mcp.example.com/git', headers: { authorization: TOKEN }, pricePerCall: 0.5 });
      expect(await version()).toBe(v0 + 1);
      const row = await db.knex('mcp_servers').where({ id: 'git' }).first();
      expect(JSON.stringify(row)).not.toContain('mcp-upstream-token');
      expect(await store.list()).toEqual([
        { id: 'git', url: 'https://mcp.example.com/git', headers: { authorization: TOKEN }, pricePerCall: 0.5 },
      ]);
      expect(await store.update({ id: 'git', url: 'https://mcp.example.com/v2', headers: {}, pricePerCall: null })).toBe(true);
      expect(await store.update({ id: 'nope', url: 'https://mcp.example.com/v2', headers: {}, pricePerCall: null })).toBe(false);
      expect(await store.list()).toEqual([{ id: 'git', url: 'https://mcp.example.com/v2', headers: {}, pricePerCall: null }]);
      expect(await store.remove('git')).toBe(true);
      expect(await store.remove('git')).toBe(false);
      expect(await version()).toBe(v0 + 3);
      expect(await store.list()).toEqual([]);
    });

    it('refuses an id equal, or equal but for case, to a stored one, and a header without a sealing secret', async () => {
      const store = new KnexMcpServerStore(db.knex, { sealKey: SEAL });
      const docs = { id: 'docs', url: 'https://docs.example.com/mcp', headers: {}, pricePerCall: null };
      await store.create(docs);
      for (const id of ['docs', 'Docs'])
        await expect(store.create({ ...docs, id })).rejects.toMatchObject({ reason: 'conflict', code: 'mcp_server_exists' });
      const unsealed = new KnexMcpServerStore(db.knex, {});
      await expect(
        unsealed.create({ id: 'x', url: 'https://x.example.com/', headers: { a: 'b' }, pricePerCall: null }),
      ).rejects.toBeInstanceOf(SecretRequiredError);
      await store.remove('docs');
    });

    it('is re-sealed by secrets:reseal; a value no secret opens is left out and named by the start-up check', async () => {
      await new KnexMcpServerStore(db.knex, { sealKey: SEAL }).create({
        id: 'git',
        url: 'https://mcp.example.com/git',
        headers: { authorization: TOKEN },
        pricePerCall: null,
      });
      expect((await sealedInventory(db.knex, { current: NEXT })).unreadable).toContain("MCP server git's header authorization");
      expect((await new KnexMcpServerStore(db.knex, { sealKey: NEXT }).list())[0]!.headers).toEqual({});
      const resealed = await resealSecrets(db.knex, { current: NEXT, previous: SEAL });
      expect(resealed.previous).toEqual(["MCP server git's header authorization"]);
      expect((await new KnexMcpServerStore(db.knex, { sealKey: NEXT }).list())[0]!.headers).toEqual({ authorization: TOKEN });
      await db.knex('mcp_servers').delete();
    });
  });
});
