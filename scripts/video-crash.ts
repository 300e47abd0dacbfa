/**
 * The full crash run of issue 7 (too slow for the suite): 200 video tasks on the fake Veo, Sora and Ark
 * upstreams, the gateway process SIGKILLed at random moments and restarted (5 times by default).
 * `npm run crash:video [-- --tasks 200 --kills 5 --seed N]`; exits 1 if any task was lost, left
 * unfinished, submitted twice, or delivered with different bytes. TEST_DATABASE_URL → Postgres, else PGlite.
 */
import { runVideoCrashScenario } from '../packages/server/test/support/video-crash-run';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main(): Promise<void> {
  const seed = arg('seed', Date.now() % 1_000_000);
  const opts = { tasks: arg('tasks', 200), kills: arg('kills', 5), seed, settleMs: 120_000, log: (l: string) => console.log(l) };
  console.log(`crash run: ${opts.tasks} tasks, ${opts.kills} SIGKILLs, seed ${seed}`);
  const r = await runVideoCrashScenario(opts);
  console.log(JSON.stringify(r, null, 2));
  const bad = r.lost.length + r.notTerminal.length + r.submittedTwice.length + r.contentMismatch.length + r.succeededUnsubmitted.length;
  console.log(
    bad
      ? `FAILED: ${bad} violations`
      : `OK: all ${r.tasks} tasks terminal, none submitted twice, none lost (${r.store}, ${(r.elapsedMs / 1000).toFixed(1)} s)`,
  );
  process.exit(bad ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
