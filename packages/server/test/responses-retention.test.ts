import { eventually } from '@gateway/testkit';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '@gateway/store-postgres';
import request from 'supertest';
import { envFromProcess } from '../src/gateway';

import { BETA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

/** Stored responses older than RESPONSES_RETENTION_DAYS are deleted by the background purge; newer ones stay. */
let gw: TestGateway;
afterEach(async () => {
  await gw?.stop();
});

async function storedResponse(): Promise<string> {
  const res = await request(gw.app)
    .post('/v1/responses')
    .set('Authorization', `Bearer ${BETA_KEY}`)
    .send({ model: 'sim-chat', input: 'remember me' });
  expect(res.status).toBe(200);
  return res.body.id;
}
const read = (id: string) => request(gw.app).get(`/v1/responses/${id}`).set('Authorization', `Bearer ${BETA_KEY}`);
const backdate = (id: string, days: number) =>
  gw.db
    .knex('responses')
    .where({ id })
    .update({ created_at: new Date(Date.now() - days * 86_400_000) });

describe('stored responses retention', () => {
  it('the background purge deletes what is past retention, at start', async () => {
    gw = await startTestGateway({ listen: false, env: { responsesRetentionDays: 7 } });
    const old = await storedResponse();
    const recent = await storedResponse();
    await backdate(old, 8);
    await backdate(recent, 6);
    await gw.startBackground();
    await eventually(async () => expect((await read(old)).status).toBe(404));
    expect((await read(recent)).status).toBe(200);
  });

  it('0 keeps them forever', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gw-retention-'));
    try {
      gw = await startTestGateway({ listen: false, env: { responsesRetentionDays: 0, dataDir, inMemoryDatabase: false } });
      const old = await storedResponse();
      await backdate(old, 3650);
      await gw.startBackground();
      // stopping waits for any purge the start began: what is left afterwards is what the purge left, no sleep needed
      await gw.stop();
      const db = await openDatabase({ dataDir });
      try {
        expect(await db.knex('responses').where({ id: old }).pluck('id')).toEqual([old]);
      } finally {
        await db.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000); // PGlite on disk, opened twice: seconds each on a loaded machine

  it('RESPONSES_RETENTION_DAYS defaults to 30 and refuses what is not a whole number of days', () => {
    expect(envFromProcess({}).responsesRetentionDays).toBe(30);
    expect(envFromProcess({ RESPONSES_RETENTION_DAYS: '0' }).responsesRetentionDays).toBe(0);
    expect(() => envFromProcess({ RESPONSES_RETENTION_DAYS: 'soon' })).toThrow('RESPONSES_RETENTION_DAYS must be a whole number');
    expect(() => envFromProcess({ RESPONSES_RETENTION_DAYS: '-1' })).toThrow('RESPONSES_RETENTION_DAYS');
  });
});
