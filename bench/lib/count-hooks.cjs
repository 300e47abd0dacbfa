/**
 * Preloaded (`node --require bench/lib/count-hooks.cjs …`) into the gateway and the bare proxy by `npm run
 * bench:counts`: counts, on the main thread, the promises, timers, immediates and other async resources created, the
 * event listeners added (EventEmitter and EventTarget, so AbortSignal listeners too) and the bytes the V8 heap
 * allocated. On SIGUSR2 it writes the running totals as JSON to $COUNT_HOOKS_OUT (with a sequence number, so the
 * reader knows the file is new). Plain JavaScript: it is loaded before any bundle or loader.
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
  asyncHooks
    .createHook({
      init(_id, type) {
        if (type === 'PROMISE') counts.promises++;
        else if (type === 'Timeout') counts.timers++;
        else if (type === 'Immediate') counts.immediates++;
        else counts.otherAsync++;
      },
    })
    .enable();
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
    fs.writeFileSync(out, JSON.stringify({ seq, ...counts, allocatedBytes: allocated() }));
  });
}
