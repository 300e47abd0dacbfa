/**
 * `npm run bench:upstream-call` (issue 40): what one upstream call costs the gateway's process, without
 * the rest of the request path: the upstream client (packages/provider-kit) calls the mock upstream (its own process)
 * at c=16 and this process counts, per call, its CPU time (user + system), the bytes the V8 heap allocated, and the
 * promises, timers, immediates, other async resources and event listeners created (CPU in a run of its own, uncounted). Each call is a chat completion
 * read by the JSON handler, or with `--stream` 200 chunks read as server-sent events. One JSON line. Env: BENCH_CALLS
 * (default 20000). Interleave it across two checkouts to compare senders; CPU is the figure the machine's load moves.
 */
import { createHook } from 'node:async_hooks';
import { EventEmitter } from 'node:events';
import v8 from 'node:v8';
import { UpstreamClient } from '../packages/provider-kit/src/upstream-client';
import { s } from '../packages/provider-kit/src/upstream-schema';
import { freePort, startMock } from './lib/targets';

const counts = { promises: 0, timers: 0, immediates: 0, otherAsync: 0, listeners: 0 };
let counting = false;
const hook = createHook({
  init(_id, type) {
    if (type === 'PROMISE') counts.promises++;
    else if (type === 'Timeout') counts.timers++;
    else if (type === 'Immediate') counts.immediates++;
    else counts.otherAsync++;
  },
});
for (const m of ['addListener', 'on', 'once', 'prependListener', 'prependOnceListener'] as const) {
  const original = EventEmitter.prototype[m];
  EventEmitter.prototype[m] = function (this: EventEmitter, ...args: Parameters<EventEmitter['on']>) {
    if (counting) counts.listeners++;
    return original.apply(this, args);
  };
}
const addEventListener = EventTarget.prototype.addEventListener;
EventTarget.prototype.addEventListener = function (this: EventTarget, ...args: Parameters<EventTarget['addEventListener']>) {
  if (counting) counts.listeners++;
  return addEventListener.apply(this, args);
};

/** Bytes the heap allocated while `work` ran: what each collection found in use beyond what the last one left. */
async function allocatedDuring(work: () => Promise<void>): Promise<number> {
  let lastUsed = v8.getHeapStatistics().used_heap_size;
  const profiler = new v8.GCProfiler();
  profiler.start();
  await work();
  const { statistics } = profiler.stop();
  let allocated = 0;
  for (const gc of statistics) {
    allocated += Math.max(0, gc.beforeGC.heapStatistics.usedHeapSize - lastUsed);
    lastUsed = gc.afterGC.heapStatistics.usedHeapSize;
  }
  return allocated + Math.max(0, v8.getHeapStatistics().used_heap_size - lastUsed);
}

const ANSWER = s.object({ id: s.string() });

async function run(client: UpstreamClient, calls: number, stream: boolean): Promise<void> {
  let next = 0;
  const body = { model: 'mock', stream, messages: [{ role: 'user', content: 'Say hello.' }] };
  const worker = async () => {
    while (next++ < calls) {
      const signal = new AbortController().signal; // as a request's own signal reaches the client
      if (!stream) await client.json({ method: 'POST', path: '/chat/completions', json: body, signal }, ANSWER, 'a completion');
      else for await (const e of (await client.request({ method: 'POST', path: '/chat/completions', json: body, signal })).events()) void e;
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

async function main(): Promise<void> {
  const stream = process.argv.includes('--stream');
  const calls = Number(process.env.BENCH_CALLS ?? 20_000);
  const port = await freePort();
  const mock = await startMock(port);
  const client = new UpstreamClient({ baseUrl: `http://127.0.0.1:${port}/v1` });
  try {
    await run(client, 2_000, stream); // warm-up: sockets open, code optimised
    const cpu = process.cpuUsage();
    await run(client, calls, stream);
    const used = process.cpuUsage(cpu);
    counting = true;
    hook.enable();
    const allocated = await allocatedDuring(() => run(client, calls, stream));
    hook.disable();
    counting = false;
    const per = (n: number) => +(n / calls).toFixed(2);
    console.log(
      JSON.stringify({
        stream,
        cpuPerCallUs: per(used.user + used.system),
        allocatedBytesPerCall: Math.round(allocated / calls),
        ...Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, per(v)])),
      }),
    );
  } finally {
    client.destroy();
    await mock.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
