/**
 * The fake upstream of `npm run bench:polling`, in its own process so the gateway's worker and the fake do
 * not share one event loop. Tasks run for an hour (they stay active for the whole benchmark). Prints
 * `READY {url, apiKey}`; on stdin `stats <sinceMs>` prints `STATS {...}`: per task, polls and the longest
 * gap between two polls since `sinceMs`.
 */
import readline from 'node:readline';
import { startFakeArk } from '../packages/provider-ark/src/testing';
import { startFakeVeo } from '../packages/provider-google/src/testing';
import { startFakeSora } from '../packages/provider-openai/src/testing';
import type { FakeHttpServer } from '../packages/testkit/src';

const kind = (process.argv[2] ?? 'sora') as 'sora' | 'ark' | 'veo';

async function main(): Promise<void> {
  const opts = { queuedMs: 0, runningMs: 3_600_000 };
  const fake = kind === 'ark' ? await startFakeArk(opts) : kind === 'veo' ? await startFakeVeo(opts) : await startFakeSora(opts);
  const api: FakeHttpServer = fake.api;
  // Per task: every poll time (ms). Read from the request log, which is drained every 200 ms.
  const polls = new Map<string, number[]>();
  let calls = 0;
  const idOf =
    kind === 'ark' ? /\/tasks\/(cgt-[a-z0-9]+)$/ : kind === 'veo' ? /\/operations\/([a-z0-9]+)$/ : /\/videos\/(video_[a-z0-9]+)$/;
  setInterval(() => {
    for (const r of api.requests.splice(0)) {
      if (r.method !== 'GET') continue;
      calls++;
      const ids =
        kind === 'ark' && r.query.getAll('filter.task_ids').length
          ? r.query.getAll('filter.task_ids')
          : ([idOf.exec(r.path)?.[1]].filter(Boolean) as string[]);
      const at = Date.now();
      for (const id of ids) {
        const list = polls.get(id) ?? [];
        list.push(at);
        polls.set(id, list);
      }
    }
  }, 200).unref();
  console.log(`READY ${JSON.stringify({ url: fake.url, apiKey: fake.apiKey })}`);
  const rl = readline.createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    const [cmd, arg] = line.trim().split(/\s+/);
    if (cmd === 'quit') process.exit(0);
    if (cmd !== 'stats') return;
    const since = Number(arg);
    const end = Date.now();
    let polled = 0;
    let maxGap = 0;
    const gaps: number[] = [];
    for (const times of polls.values()) {
      const inWindow = times.filter((t) => t >= since);
      if (inWindow.length) polled++;
      // gap from the window start to the first poll, between polls, and from the last poll to the window end
      const edges = [since, ...inWindow, end];
      let worst = 0;
      for (let i = 1; i < edges.length; i++) worst = Math.max(worst, edges[i]! - edges[i - 1]!);
      gaps.push(worst);
      maxGap = Math.max(maxGap, worst);
    }
    gaps.sort((a, b) => a - b);
    const submissions = fake.book.submissions.length;
    console.log(
      `STATS ${JSON.stringify({ tasksKnown: polls.size, submissions, polledInWindow: polled, maxGapMs: maxGap, p50GapMs: gaps[Math.floor(gaps.length / 2)] ?? 0, p99GapMs: gaps[Math.floor(gaps.length * 0.99)] ?? 0, httpPolls: calls })}`,
    );
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
