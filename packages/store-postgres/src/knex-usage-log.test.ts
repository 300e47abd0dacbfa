import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { UsageRow } from '@gateway/core';
import { eventually } from '@gateway/testkit';
import { KnexKeyRepository } from './knex-key-repository';
import { KnexQuotaRepository } from './knex-quota-repository';
import { KnexUsageLog } from './knex-usage-log';
import { describeOnTestDatabases } from '../test/test-databases';

const row = (requestId: string, extra: Partial<UsageRow> = {}): UsageRow => ({
  requestId,
  accountId: 'acme',
  keyId: null,
  model: 'm',
  format: 'openai-chat',
  status: 'ok',
  httpStatus: 200,
  ...extra,
});

/** The pid of a process that has ended (a spool segment it left is an orphan). */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

describeOnTestDatabases((target) => {
  describe(`KnexUsageLog on ${target.name}: spooled, replayed in order, written once`, () => {
    let db: Awaited<ReturnType<typeof target.open>>;
    let quotas: KnexQuotaRepository;
    let dir: string;
    beforeAll(async () => {
      db = await target.open();
      quotas = new KnexQuotaRepository(db.knex);
      await new KnexKeyRepository(db.knex).createAccount('acme');
    });
    afterAll(async () => db.drop());
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'usage-spool-'));
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
    const segments = () => fs.readdirSync(dir).filter((n) => n.endsWith('.jsonl'));

    const countOf = async (requestId: string) =>
      Number((await db.knex('usage_log').where({ request_id: requestId }).count({ n: '*' }))[0]!.n);

    it('a batch the database refuses waits in the spool (0600 files, 0700 dir) and is written once when it takes it', async () => {
      const failures: Array<{ rows: number; ids: string[] }> = [];
      let recovered = 0;
      const log = new KnexUsageLog(db.knex, {
        spoolDir: dir,
        retryMs: 20,
        onError: (_e, rows) => failures.push({ rows: rows.length, ids: rows.map((r) => r.requestId) }),
        onRecovered: (n) => (recovered += n),
      });
      await db.knex.schema.renameTable('usage_log', 'usage_log_away');
      const restore = () => db.knex.schema.renameTable('usage_log_away', 'usage_log');
      try {
        await outage(log, failures);
      } finally {
        await restore();
      }
      await eventually(() => expect(log.pendingRows()).toBe(0));
      expect(recovered).toBe(3);
      for (const id of ['outage-1', 'outage-2', 'outage-3']) expect(await countOf(id)).toBe(1);
      // nothing left, not even the lease once the log is stopped
      expect(segments()).toEqual([]);
      log.stop();
      expect(fs.readdirSync(dir)).toEqual([]);
    });

    async function outage(log: KnexUsageLog, failures: Array<{ rows: number; ids: string[] }>) {
      log.record(row('outage-1'));
      log.record(row('outage-2'));
      await log.flush();
      expect(log.pendingRows()).toBe(2);
      const files = segments();
      expect(files).toHaveLength(1);
      expect(fs.statSync(path.join(dir, files[0]!)).mode & 0o777).toBe(0o600);
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
      // wait for several retries to fail (watched on the connection, not guessed from elapsed time)
      let failedWrites = 0;
      const seen = (_e: unknown, q: { sql?: string }) => void (q.sql?.includes('usage_log') && failedWrites++);
      db.knex.on('query-error', seen);
      log.record(row('outage-3'));
      await log.flush();
      await eventually(() => expect(failedWrites).toBeGreaterThanOrEqual(3));
      db.knex.removeListener('query-error', seen);
      // each batch was reported once, with its count and request ids, however often it was retried
      expect(failures).toEqual([
        { rows: 2, ids: ['outage-1', 'outage-2'] },
        { rows: 1, ids: ['outage-3'] },
      ]);
      expect(log.pendingRows()).toBe(3);
    }

    it('a dead process’s segment is replayed: its rows once, its unfinished priced stream settled and charged once', async () => {
      const before = (await quotas.get('acme')).used;
      const pid = deadPid();
      const segment = (name: string) => path.join(dir, `${String(Date.now()).padStart(15, '0')}-${pid}-abcd1234-${name}.jsonl`);
      const lines = [
        { row: row('crash-done', { rowId: 'row-crash-done', credits: 1, charge: 1 }) },
        { pending: row('crash-open', { rowId: 'row-crash-open', status: 'pending', inputTokens: 40, credits: 2, charge: 2 }) },
        { pending: row('crash-closed', { rowId: 'row-crash-closed', status: 'pending', credits: 5, charge: 5 }) },
        { row: row('crash-closed', { rowId: 'row-crash-closed', status: 'cancelled', httpStatus: 499, credits: 0.5 }) },
      ];
      const text = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n{"row":{"torn`;
      fs.writeFileSync(segment('00000000'), text);
      const first = new KnexUsageLog(db.knex, { spoolDir: dir });
      await first.recover();
      expect(await countOf('crash-done')).toBe(1);
      expect(await db.knex('usage_log').where({ request_id: 'crash-open' }).first()).toMatchObject({
        status: 'interrupted',
        error_code: 'gateway_stopped',
        input_tokens: 40,
      });
      expect(await db.knex('usage_log').where({ request_id: 'crash-closed' }).first()).toMatchObject({ status: 'cancelled' });
      expect((await quotas.get('acme')).used).toBeCloseTo(before + 1 + 2);
      expect(segments()).toEqual([]);

      // the same segment again (a replay that died before deleting it): nothing written or charged twice
      fs.writeFileSync(segment('00000001'), text);
      await new KnexUsageLog(db.knex, { spoolDir: dir }).recover();
      for (const id of ['crash-done', 'crash-open', 'crash-closed']) expect(await countOf(id)).toBe(1);
      expect((await quotas.get('acme')).used).toBeCloseTo(before + 1 + 2);
    });

    it('a spool that cannot be written never fails a request: reported once, the row still written', async () => {
      const errors: unknown[] = [];
      const log = new KnexUsageLog(db.knex, { spoolDir: dir, onSpoolError: (e) => errors.push(e) });
      fs.rmSync(dir, { recursive: true, force: true });
      expect(() => log.record(row('no-spool-1'))).not.toThrow();
      expect(() => log.record(row('no-spool-2'))).not.toThrow();
      await log.flush();
      expect(errors).toHaveLength(1);
      expect(await countOf('no-spool-1')).toBe(1);
      expect(await countOf('no-spool-2')).toBe(1);
    });

    it('a live process’s segments are left alone', async () => {
      const mine = new KnexUsageLog(db.knex, { spoolDir: dir });
      await db.knex.schema.renameTable('usage_log', 'usage_log_away');
      try {
        mine.record(row('live-1'));
        await mine.flush();
        const before = segments();
        expect(before).toHaveLength(1);
        await new KnexUsageLog(db.knex, { spoolDir: dir }).recover();
        expect(segments()).toEqual(before);
      } finally {
        await db.knex.schema.renameTable('usage_log_away', 'usage_log');
        mine.stop();
      }
    });

    /** A priced stream left open by `owner`: its pending row is its spool segment's only entry. */
    const openStream = (owner: KnexUsageLog, requestId: string) => {
      owner.pending(row(requestId, { rowId: `row-${requestId}`, status: 'pending', inputTokens: 12, credits: 12, charge: 12 }));
      const [lease] = fs.readdirSync(dir).filter((n) => n.endsWith('.lease'));
      return path.join(dir, lease!);
    };
    const statusOf = async (requestId: string) => (await db.knex('usage_log').where({ request_id: requestId }).first())?.status;

    it('an owner in another PID namespace or host (the same pid, 1 in every container) keeps its segment while its lease is renewed', async () => {
      // renewed rarely here: the test ages the lease itself
      const owner = new KnexUsageLog(db.knex, { spoolDir: dir, spoolLeaseMs: 600_000 });
      const lease = openStream(owner, 'other-ns');
      // the owner's lease as a process of another namespace wrote it: its pid tells this process nothing
      const identity = JSON.parse(fs.readFileSync(lease, 'utf8'));
      fs.writeFileSync(lease, JSON.stringify({ ...identity, scope: 'another-boot pid:[4026531836]' }));
      const before = segments();
      const sweeper = new KnexUsageLog(db.knex, { spoolDir: dir, spoolLeaseMs: 60_000 });
      await sweeper.recover();
      expect(segments()).toEqual(before);
      expect(await statusOf('other-ns')).toBeUndefined();

      // no renewal for longer than the lease: the owner is gone, its stream settled as interrupted, its lease removed
      const stale = new Date(Date.now() - 120_000);
      fs.utimesSync(lease, stale, stale);
      await sweeper.recover();
      expect(await statusOf('other-ns')).toBe('interrupted');
      expect(fs.existsSync(lease)).toBe(false);
      owner.stop();
      sweeper.stop();
    });

    it('in this namespace, an owner whose pid now names another process (start time differs) is gone at once', async () => {
      const owner = new KnexUsageLog(db.knex, { spoolDir: dir });
      const lease = openStream(owner, 'pid-reused');
      const identity = JSON.parse(fs.readFileSync(lease, 'utf8'));
      fs.writeFileSync(lease, JSON.stringify({ ...identity, start: '1' }));
      await new KnexUsageLog(db.knex, { spoolDir: dir }).recover();
      expect(await statusOf('pid-reused')).toBe('interrupted');
      owner.stop();
    });

    it('a stopped owner releases its lease: what it left is replayed by the next sweep at once', async () => {
      const owner = new KnexUsageLog(db.knex, { spoolDir: dir });
      openStream(owner, 'stopped-owner');
      owner.stop();
      await new KnexUsageLog(db.knex, { spoolDir: dir }).recover();
      expect(await statusOf('stopped-owner')).toBe('interrupted');
    });
  });
});
