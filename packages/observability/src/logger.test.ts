import { createHook } from 'node:async_hooks';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createAnnouncer, createLogger } from './logger';

function sink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  return { lines, stream };
}

const flushed = () => new Promise((r) => setImmediate(r));

describe('logger', () => {
  it('writes one JSON object a line by default', async () => {
    const { lines, stream } = sink();
    createLogger('info', { stream }).info('store ready', { ms: 12 });
    await flushed();
    expect(lines.map((l) => JSON.parse(l))).toEqual([expect.objectContaining({ level: 'info', message: 'store ready', ms: 12 })]);
  });

  it('queues no immediate per line (issue 40: the request line is one per request)', async () => {
    const { lines, stream } = sink();
    const logger = createLogger('info', { stream });
    let immediates = 0;
    const hook = createHook({ init: (_id, type) => void (type === 'Immediate' && immediates++) }).enable();
    for (let i = 0; i < 50; i++) logger.info('request', { i });
    hook.disable();
    await flushed();
    expect({ lines: lines.length, immediates }).toEqual({ lines: 50, immediates: 0 });
  });

  it('stamps each line with an ISO time, and still writes one JSON line for a value JSON.stringify refuses', async () => {
    const { lines, stream } = sink();
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const logger = createLogger('info', { stream });
    logger.info('big', { bytes: 10n });
    logger.info('cycle', { cyclic });
    await flushed();
    const parsed = lines.map((l) => JSON.parse(l));
    expect(parsed.map((p) => p.message)).toEqual(['big', 'cycle']);
    for (const p of parsed) expect(new Date(p.timestamp).toISOString()).toBe(p.timestamp);
  });

  it('on stdout, the lines of both loggers keep their order and are all out when the process exits at once', () => {
    const script = `
      const { createLogger, createAnnouncer } = require(${JSON.stringify(path.join(__dirname, 'logger.ts'))});
      const logger = createLogger('info');
      const announce = createAnnouncer('warn');
      logger.info('one'); announce.info('two'); logger.warn('three');
      process.exit(0);`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
    expect(
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).message),
    ).toEqual(['one', 'two', 'three']);
  });

  it('LOG_FORMAT=pretty writes a readable line for a terminal', async () => {
    const { lines, stream } = sink();
    createLogger('info', { stream, format: 'pretty' }).warn('redis unreachable', { policy: 'open' });
    await flushed();
    expect(lines).toHaveLength(1);
    expect(() => JSON.parse(lines[0]!)).toThrow();
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} .*warn.* redis unreachable \{"policy":"open"\}$/);
  });

  it('the announcer shows start-up lines even when LOG_LEVEL is warn', async () => {
    const { lines, stream } = sink();
    createLogger('warn', { stream }).info('hidden');
    createAnnouncer('warn', { stream }).info('Gateway listening on http://127.0.0.1:1 (store: pglite)');
    await flushed();
    expect(lines.map((l) => JSON.parse(l).message)).toEqual(['Gateway listening on http://127.0.0.1:1 (store: pglite)']);
  });
});
