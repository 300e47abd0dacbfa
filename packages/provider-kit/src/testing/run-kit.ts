import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AdapterModules, type ModuleEntry, type ModuleRefusal } from '../adapter-modules';
import { createRedactor } from '../secret-redactor';
import { runConformanceCases } from './conformance-case';
import { startFakeProcess } from './fake-process';
import { TEXT_CASES } from './text-cases';
import { VIDEO_CASES } from './video-cases';

/**
 * `npx gateway adapter:test <dir>`: loads the package's adapter exactly as the gateway does (contract version,
 * options schema, guard, redactor), starts its fake, runs every conformance case of its kind (provider-kit's
 * testing entry) and prints one line per case.
 */
export async function runAdapterKit(dir: string, out: (line: string) => void, refusal: ModuleRefusal): Promise<number> {
  const root = resolve(dir);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { main?: string; gatewayAdapter?: { kind?: string } };
  const kind = pkg.gatewayAdapter?.kind ?? 'text';
  const key = `kit-key-${randomBytes(12).toString('hex')}`;
  const fake = await startFakeProcess(root, ['--key', key]);
  const dataDir = await mkdtemp(join(tmpdir(), 'adapter-kit-'));
  const modules = new AdapterModules(root);
  const entry = (apiKey: string): ModuleEntry => ({
    id: 'adapter-under-test',
    module: `./${pkg.main ?? 'adapter.mjs'}`,
    apiKey,
    options: { baseUrl: fake.url },
    // short enough that a hang fails the suite quickly, long enough for a loaded machine
    timeouts: { firstByteMs: 3000, idleMs: 3000, totalMs: 20000 },
  });
  const built: Array<{ close(): void }> = [];
  const build = (apiKey: string) => {
    const ports = modules.build(refusal, entry(apiKey), 0, { dataDir }, createRedactor([apiKey]));
    built.push(ports);
    return ports;
  };
  let failed = 0;
  try {
    await modules.load({ providers: [entry(key)] });
    const ports = build(key);
    if (kind !== 'text' && kind !== 'video') throw new Error(`package.json's gatewayAdapter.kind must be text or video (got "${kind}")`);
    if (!ports[kind]) throw new Error(`the adapter's create() returned no ${kind} port`);
    const run = { beforeEach: () => fake.control('/__fake/reset'), out };
    failed +=
      kind === 'video'
        ? await runConformanceCases(VIDEO_CASES, { fake, key, video: ports.video!, videoWithKey: (k) => build(k).video! }, run)
        : await runConformanceCases(TEXT_CASES, { fake, key, port: ports.text!, portWithKey: (k) => build(k).text! }, run);
  } catch (e) {
    failed++;
    out(`FAIL loading the adapter: ${(e as Error).message}`);
  } finally {
    for (const b of built) b.close();
    await fake.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  out(failed ? `${failed} suite(s) failed` : 'all suites passed');
  return failed ? 1 : 0;
}
