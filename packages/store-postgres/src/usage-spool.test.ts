import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { UsageRow } from '@gateway/core';
import { UsageSpool } from './usage-spool';

const row = (requestId: string) => ({ row: { requestId, rowId: `row-${requestId}` } as unknown as UsageRow });
const nextTurn = () => new Promise((r) => setImmediate(r));

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spool-unit-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const segmentLines = () =>
  fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.jsonl'))
    .flatMap((n) => fs.readFileSync(path.join(dir, n), 'utf8').split('\n').filter(Boolean));

it('the rows of one event-loop turn reach the kernel in one write at its end (issue 40)', async () => {
  const spool = new UsageSpool(dir);
  const writes = jest.spyOn(fs, 'writeSync');
  try {
    for (let i = 0; i < 50; i++) spool.append(row(`r${i}`));
    expect(segmentLines()).toEqual([]);
    await nextTurn();
    // the lease file is written once too, on the segment's opening: count the segment's writes
    expect(writes.mock.calls.filter(([, text]) => String(text).includes('requestId'))).toHaveLength(1);
    expect(segmentLines().map((l) => JSON.parse(l).row.requestId)).toEqual(Array.from({ length: 50 }, (_, i) => `r${i}`));
  } finally {
    writes.mockRestore();
    spool.release();
  }
});

it('sync and rotate write what the turn queued at once, in order', async () => {
  const spool = new UsageSpool(dir);
  spool.append(row('a'));
  spool.sync();
  expect(segmentLines()).toHaveLength(1);
  spool.append(row('b'));
  const closed = spool.rotate();
  expect(
    fs
      .readFileSync(closed!, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).row.requestId),
  ).toEqual(['a', 'b']);
  await nextTurn();
  expect(segmentLines()).toHaveLength(2); // nothing written twice
  spool.release();
});

it('a failed turn write is reported, and its lines are not retried', async () => {
  const results: unknown[] = [];
  const spool = new UsageSpool(dir, undefined, (e) => results.push(e));
  fs.rmSync(dir, { recursive: true, force: true });
  spool.append(row('lost'));
  await nextTurn();
  expect(results).toEqual([expect.objectContaining({ code: 'ENOENT' })]);
  fs.mkdirSync(dir, { recursive: true });
  spool.append(row('kept'));
  await nextTurn();
  expect(results).toEqual([expect.objectContaining({ code: 'ENOENT' }), undefined]);
  expect(segmentLines().map((l) => JSON.parse(l).row.requestId)).toEqual(['kept']);
});

it('what is queued when the process exits is written then', () => {
  const script = `
    const { UsageSpool } = require(${JSON.stringify(path.join(__dirname, 'usage-spool.ts'))});
    const spool = new UsageSpool(${JSON.stringify(dir)});
    spool.append({ row: { requestId: 'at-exit', rowId: 'row-at-exit' } });
    process.exit(0);
  `;
  execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: path.resolve(__dirname, '../../..'),
  });
  expect(segmentLines().map((l) => JSON.parse(l).row.requestId)).toEqual(['at-exit']);
});
