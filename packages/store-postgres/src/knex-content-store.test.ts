import { Readable } from 'node:stream';
import { describeContentStoreConformance } from '@gateway/testkit';
import { KnexContentStore } from './knex-content-store';
import { describeOnTestDatabases } from '../test/test-databases';

describeOnTestDatabases((target) => {
  // small chunks, so the suite's 300 kB object spans dozens of them and every Range crosses boundaries
  describeContentStoreConformance(`postgres chunks on ${target.name}`, async () => {
    const db = await target.open();
    return {
      store: new KnexContentStore(db.knex, { chunkSize: 16 * 1024 }),
      backdate: async (key, at) => void (await db.knex('content_objects').where({ key }).update({ written_at: at })),
      done: () => db.drop(),
    };
  });

  describe(`KnexContentStore on ${target.name}`, () => {
    let db: Awaited<ReturnType<typeof target.open>>;
    beforeAll(async () => (db = await target.open()));
    afterAll(() => db.drop());

    it('stores fixed-size chunks and a Range read fetches only the chunks it covers', async () => {
      const store = new KnexContentStore(db.knex, { chunkSize: 1000 });
      const data = Buffer.alloc(10_500, 7);
      await store.put('videos/chunked.mp4', data);
      const [{ id }] = await db.knex('content_objects').where({ key: 'videos/chunked.mp4' }).select('id');
      const rows = await db
        .knex('content_chunks')
        .where({ object_id: id })
        .orderBy('idx')
        .select('idx', db.knex.raw('length(data) as len'));
      expect(rows.map((r) => [r.idx, Number(r.len)])).toEqual([...Array.from({ length: 10 }, (_, i) => [i, 1000]), [10, 500]]);

      const queries: string[] = [];
      const onQuery = (q: { sql: string; bindings?: unknown[] }) => {
        if (q.sql.includes('content_chunks')) queries.push(JSON.stringify(q.bindings));
      };
      db.knex.on('query', onQuery);
      const chunks: Buffer[] = [];
      for await (const c of store.open('videos/chunked.mp4', { start: 4990, end: 5010 })) chunks.push(c as Buffer);
      db.knex.off('query', onQuery);
      expect(Buffer.concat(chunks).length).toBe(21);
      // chunks 4 and 5 only
      expect(queries).toEqual([JSON.stringify([id, 4, 5])]);
    });

    it('a failed write leaves no chunks behind', async () => {
      const store = new KnexContentStore(db.knex, { chunkSize: 1000 });
      async function* failing() {
        yield Buffer.alloc(2500);
        throw new Error('upstream broke');
      }
      const before = Number((await db.knex('content_chunks').count({ n: '*' }))[0]!.n);
      await expect(store.put('videos/broken.mp4', Readable.from(failing()))).rejects.toThrow('upstream broke');
      expect(Number((await db.knex('content_chunks').count({ n: '*' }))[0]!.n)).toBe(before);
      expect(Number((await db.knex('content_objects').whereNull('key').count({ n: '*' }))[0]!.n)).toBe(0);
    });
  });
});
