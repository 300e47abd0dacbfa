import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAdapterCommand } from '@gateway/cli';

/**
 * The kit fails what is wrong, by suite, and says why: a scaffolded adapter with two deliberate faults. Process lane:
 * the kit starts the package's fake upstream as a process of its own and gives a faulty adapter its full patience.
 */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'adapter-kit-faults-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('names the failing suites and exits 1', async () => {
  const pkg = path.join(dir, 'faulty');
  const io = { out: (s: string) => lines.push(s), err: (s: string) => lines.push(s) };
  const lines: string[] = [];
  expect(await runAdapterCommand('adapter:new', [pkg, '--kind', 'text'], io)).toBe(0);
  const file = path.join(pkg, 'adapter.mjs');
  const source = readFileSync(file, 'utf8');
  // fault 1: the upstream call ignores the caller's abort; fault 2: Retry-After is dropped
  const faulty = source.replace('signal: ctx.signal,', '').replace("retryAfter: res.headers.get('retry-after'),", '');
  expect(faulty).not.toBe(source);
  writeFileSync(file, faulty);
  lines.length = 0;
  expect(await runAdapterCommand('adapter:test', [pkg], io)).toBe(1);
  expect(lines.filter((l) => l.startsWith('FAIL '))).toEqual([
    'FAIL errors mapped to the closed error table: 429: expected retryAfterSeconds 7, got undefined',
    'FAIL abort and cleanup: the upstream connection stayed open after the caller left (pass ctx.signal to fetch)',
  ]);
  expect(lines.filter((l) => l.startsWith('PASS '))).toHaveLength(4);
  expect(lines.at(-1)).toBe('2 suite(s) failed');
});

it('refuses a module written for another major version of the contract, in one line', async () => {
  const pkg = path.join(dir, 'future');
  const lines: string[] = [];
  const io = { out: (s: string) => lines.push(s), err: (s: string) => lines.push(s) };
  await runAdapterCommand('adapter:new', [pkg, '--kind', 'video'], io);
  const file = path.join(pkg, 'adapter.mjs');
  writeFileSync(file, readFileSync(file, 'utf8').replace("contractVersion: '1.0.0'", "contractVersion: '2.0.0'"));
  lines.length = 0;
  expect(await runAdapterCommand('adapter:test', [pkg], io)).toBe(1);
  expect(lines[0]).toMatch(/^FAIL loading the adapter: .*providers\.0\.module: .*written for adapter contract 2\.0\.0/);
});
