import type { UsageRow } from '@gateway/core';
import { KnexKeyRepository } from './knex-key-repository';
import { KnexUsageLog } from './knex-usage-log';
import { KnexUsageQuery } from './knex-usage-query';
import { describeOnTestDatabases } from '../test/test-databases';

/** Migration 039: a usage row's guardrail hits and a key's own guardrail ids, written and read back. */
describeOnTestDatabases((target) => {
  describe(`guardrail columns on ${target.name}`, () => {
    let db: Awaited<ReturnType<typeof target.open>>;
    beforeAll(async () => {
      db = await target.open();
    });
    afterAll(async () => db.drop());

    it('a key keeps its own guardrails (null: none), changed by an update', async () => {
      const keys = new KnexKeyRepository(db.knex);
      await keys.createAccount('acme');
      const made = await keys.createKey({
        accountId: 'acme',
        group: 'default',
        hash: 'h'.repeat(64),
        prefix: 'sk-abcd',
        guardrails: ['pii'],
      });
      expect((await keys.getKey(made.id))!.guardrails).toEqual(['pii']);
      await keys.updateKey(made.id, { guardrails: null });
      expect((await keys.getKey(made.id))!.guardrails).toBeNull();
      expect((await keys.findKeyByHash('h'.repeat(64)))!.guardrails).toBeNull();
    });

    it('a usage row keeps its hits, and a row without any has none', async () => {
      const hits: UsageRow['guardrails'] = [{ guardrail: 'pii', mode: 'mask', phase: 'input', action: 'masked' }];
      const log = new KnexUsageLog(db.knex);
      const base = { accountId: 'acme', keyId: null, model: 'm', format: 'openai-chat', status: 'ok', httpStatus: 200 };
      log.record({ ...base, requestId: 'with-hits', guardrails: hits });
      log.record({ ...base, requestId: 'without' });
      await log.flush();
      const { rows } = await new KnexUsageQuery(db.knex).list({ accountId: 'acme', limit: 10 });
      expect(rows.find((r) => r.requestId === 'with-hits')!.guardrails).toEqual(hits);
      expect(rows.find((r) => r.requestId === 'without')!.guardrails).toBeUndefined();
      log.stop();
    });
  });
});
