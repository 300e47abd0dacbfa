/**
 * Preloaded (`node --require bench/lib/count-hooks.cjs …`) into the gateway and the bare proxy by `npm run
 * bench:counts`: counts, on the main thread, the promises, timers, immediates and other async resources created, the
 * event listeners added (EventEmitter and EventTarget, so AbortSignal listeners too) and the bytes the V8 heap
 * allocated. On SIGUSR2 it writes the running totals as JSON to $COUNT_HOOKS_OUT (with a sequence number, so the
 * reader knows the file is new). With COUNT_HOOKS_SITES=1 it also keeps where each promise and timer was made (the first
 * frames outside node's internals, through the bundle's source map when node runs with --enable-source-maps), for
 * `npm run bench:counts -- --sites`. Plain JavaScript: it is loaded before any bundle or loader.
 */
'use strict';
const { isMainThread } = require('node:worker_threads');
const out = process.env.COUNT_HOOKS_OUT;
if (isMainThread && out) {
  const asyncHooks = require('node:async_hooks');
  const { EventEmitter } = require('node:events');
  const fs = require('node:fs');
  const v8 = require('node:v8');
  const counts = { promises: 0, timers: 0, immediates: 0, otherAsync: 0, listeners: 0 };
  const sites = process.env.COUNT_HOOKS_SITES === '1' ? new Map() : undefined;
  if (sites) Error.stackTraceLimit = 20;
  /** The promise's maker: the first two frames that are not node's internals nor this file, paths cut to the package. */
  const site = (hook) => {
    const holder = {};
    Error.captureStackTrace(holder, hook);
    const frames = holder.stack
      .split('\n')
      .slice(1)
      .map((l) =>
        l
          .trim()
          .replace(/^at /, '')
          .replace(/\(?(file:\/\/)?\/[^()]*?\/(packages|node_modules)\//, '($2/'),
      )
      .filter((l) => !/node:internal|count-hooks\.cjs|^new Promise|^Promise\./.test(l));
    return frames.slice(0, 2).join(' < ') || '(node internals only)';
  };
  function init(_id, type) {
    if (type === 'PROMISE') {
      counts.promises++;
      if (sites) {
        const key = site(init);
        sites.set(key, (sites.get(key) ?? 0) + 1);
      }
    } else if (type === 'Timeout') {
      counts.timers++;
      if (sites) {
        const key = `timer: ${site(init)}`;
        sites.set(key, (sites.get(key) ?? 0) + 1);
      }
    } else if (type === 'Immediate') counts.immediates++;
    else counts.otherAsync++;
  }
  asyncHooks.createHook({ init }).enable();
  const counted = (original) =>
    function (...args) {
      counts.listeners++;
      return original.apply(this, args);
    };
  for (const m of ['addListener', 'on', 'once', 'prependListener', 'prependOnceListener'])
    EventEmitter.prototype[m] = counted(EventEmitter.prototype[m]);
  if (typeof globalThis.EventTarget !== 'undefined')
    globalThis.EventTarget.prototype.addEventListener = counted(globalThis.EventTarget.prototype.addEventListener);

  // allocated bytes: what each collection found in use minus what the previous one left, plus what is in use since
  let profiler = new v8.GCProfiler();
  profiler.start();
  let allocatedBeforeLastGc = 0;
  let usedAfterLastGc = v8.getHeapStatistics().used_heap_size;
  const allocated = () => {
    const { statistics } = profiler.stop();
    for (const s of statistics) {
      allocatedBeforeLastGc += Math.max(0, s.beforeGC.heapStatistics.usedHeapSize - usedAfterLastGc);
      usedAfterLastGc = s.afterGC.heapStatistics.usedHeapSize;
    }
    profiler = new v8.GCProfiler();
    profiler.start();
    return allocatedBeforeLastGc + Math.max(0, v8.getHeapStatistics().used_heap_size - usedAfterLastGc);
  };
  let seq = 0;
  process.on('SIGUSR2', () => {
    seq++;
    const extra = sites ? { sites: Object.fromEntries(sites) } : {};
    fs.writeFileSync(out, JSON.stringify({ seq, ...counts, allocatedBytes: allocated(), ...extra }));
  });
}
