/**
 * Preloaded (`node --require bench/lib/memory-probe.cjs …`, or through NODE_OPTIONS) into a gateway by `npm run
 * bench:memory` and by the idle-modules test: on SIGUSR2 the main thread writes to $MEMORY_PROBE_OUT, as JSON, its
 * process.memoryUsage(), the npm packages loaded so far (from require.cache) and what every worker thread (which
 * inherits the preload) reports of its own isolate: heap and external memory (a WASM memory is external).
 * Plain JavaScript: it is loaded before any bundle or loader. It loads nothing the gateway would not.
 */
'use strict';
const { BroadcastChannel, isMainThread, threadId } = require('node:worker_threads');
const { setTimeout } = require('node:timers');
const out = process.env.MEMORY_PROBE_OUT;
const CHANNEL = 'memory-probe';
// how long the main thread waits for the worker threads' answers before it writes what it has
const WORKER_WAIT_MS = 500;

if (out) {
  const channel = new BroadcastChannel(CHANNEL);
  channel.unref();
  if (isMainThread) {
    let seq = 0;
    process.on('SIGUSR2', () => {
      const workers = [];
      channel.onmessage = (m) => {
        if (m.data && m.data.kind === 'worker') workers.push(m.data.report);
      };
      channel.postMessage({ kind: 'ask' });
      setTimeout(() => {
        const report = { seq: ++seq, main: isolateReport(), rssBytes: process.memoryUsage().rss, packages: loadedPackages(), workers };
        const fs = require('node:fs');
        fs.writeFileSync(`${out}.tmp`, JSON.stringify(report));
        fs.renameSync(`${out}.tmp`, out);
      }, WORKER_WAIT_MS).unref();
    });
  } else {
    channel.onmessage = (m) => {
      if (m.data && m.data.kind === 'ask') channel.postMessage({ kind: 'worker', report: { threadId, ...isolateReport() } });
    };
  }
}

function isolateReport() {
  const { heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { heapTotal, heapUsed, external, arrayBuffers };
}

/** The npm packages this thread loaded: `@scope/name` or `name`, from each loaded file under node_modules. */
function loadedPackages() {
  const names = new Set();
  for (const file of Object.keys(require.cache)) {
    const m = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(file.slice(file.lastIndexOf('node_modules')));
    if (m) names.add(m[1].replace(/\\/g, '/'));
  }
  return [...names].sort();
}
