import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { migratedMemoryImage } from '../test/memory-image';
import { migrationsApplied, openDatabase } from './db';
import { PGLITE_CONF } from './pglite-conf';

describe('openDatabase({ memoryImage }): an in-memory store started from a dump of a migrated one', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'gw-image-test-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('holds what the dump holds, with every migration applied', async () => {
    const image = await migratedMemoryImage();
    expect(image).toBeDefined();
    // a row initdb and the migrations never write: only a store loaded from this dump can hold it
    const maker = new PGlite({ postgresqlconf: PGLITE_CONF, loadDataDir: new Blob([readFileSync(image!)]) });
    await maker.exec('create table image_marker (n int); insert into image_marker values (7)');
    const marked = path.join(dir, 'marked.tar');
    writeFileSync(marked, new Uint8Array(await (await maker.dumpDataDir('none')).arrayBuffer()));
    await maker.close();

    const db = await openDatabase({ memoryImage: marked });
    try {
      expect(await db.knex('image_marker').select('n')).toEqual([{ n: 7 }]);
      expect(await migrationsApplied(db.knex)).toBe(true);
      // the thread's other options reach PGlite in memory as on disk
      expect((await db.knex.raw('show shared_buffers')).rows).toEqual([{ shared_buffers: '8MB' }]);
    } finally {
      await db.close();
    }
  });
});
