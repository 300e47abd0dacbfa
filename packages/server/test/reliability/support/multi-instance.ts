import { eventually } from '@gateway/testkit';
import path from 'node:path';
import { ALPHA_KEY } from '../../support/test-gateway';
import { isMp4 } from '../../support/video-fixtures';
import { startGatewayProcess, type GatewayProcess } from '../../support/gateway-process';
import { mp4OfTask, watchNames } from './name-watch';
import { processSetup } from './process-setup';
import { auditStore, type StoreAudit } from './store-audit';
import { sleep } from './text-clients';
import { createTask, download, isTerminal, readTask, VIDEO_FORMATS, type PlannedTask } from './video-clients';

/**
 * Two gateway processes on one Postgres schema and one DATA_DIR. Tasks are created through both; each is read (in
 * every format) and downloaded through the instance that did not create it. Renders and deliveries are counted
 * from the file system (the simulator renders each operation into its own file; each delivery copy has its own
 * nonce), and each process's log says which tasks it finished. `crashes`: instance A is SIGKILLed and restarted
 * that many times while B keeps working.
 */
export interface TwoInstanceReport {
  tasks: number;
  crashes: number;
  notTerminal: string[];
  unreadableAcross: string[];
  badContent: string[];
  /** tasks with more than one render / delivery copy / "succeeded" log line */
  renderedTwice: string[];
  deliveredTwice: string[];
  finishedTwice: string[];
  /** tasks each instance finished (shared queue: both > 0) */
  finishedBy: { a: number; b: number };
  exits: Array<number | null>;
  audit: StoreAudit;
}

const finishedIn = (log: string) =>
  [
    ...log.matchAll(
      /"message":"video task (?:succeeded|failed)"[^\n]*?"taskId":"(task[a-z0-9]+)"|"taskId":"(task[a-z0-9]+)"[^\n]*?"message":"video task (?:succeeded|failed)"/g,
    ),
  ].map((m) => m[1] ?? m[2]);

export async function runTwoInstances(o: { tasks: number; crashes: number; log?: (l: string) => void }): Promise<TwoInstanceReport> {
  const log = o.log ?? (() => undefined);
  // One step at a time per process, so a burst of tasks has to be shared out.
  const setup = await processSetup({ postgres: true, workerEnv: { VIDEO_WORKER_CONCURRENCY: '1' } });
  const renders = watchNames(path.join(setup.dir, 'simulator', 'videos'), mp4OfTask);
  const deliveries = watchNames(path.join(setup.dir, 'content', 'videos'), mp4OfTask);
  const logsOfA: string[] = [];
  let a: GatewayProcess | undefined;
  let b: GatewayProcess | undefined;
  try {
    [a, b] = await Promise.all([startGatewayProcess(setup.env), startGatewayProcess(setup.env)]);
    const plan: Array<PlannedTask & { via: 'a' | 'b' }> = Array.from({ length: o.tasks }, (_, i) => ({
      format: VIDEO_FORMATS[i % 3]!,
      prompt: `shared task ${i}${i % 7 === 6 ? ' [sim:fail]' : ''}`,
      idempotencyKey: `shared-${i}`,
      via: i % 2 ? 'b' : 'a',
    }));
    const urlOf = (via: 'a' | 'b') => (via === 'a' ? a! : b!).url;
    const other = (via: 'a' | 'b') => (via === 'a' ? 'b' : 'a');
    await Promise.all(plan.map((t) => createTask(urlOf(t.via), ALPHA_KEY, t)));

    const unreadableAcross: string[] = [];
    for (const t of plan) {
      for (const f of VIDEO_FORMATS) {
        const r = await readTask(urlOf(other(t.via)), ALPHA_KEY, t.id!, f);
        if (r.http !== 200) unreadableAcross.push(`${t.id} via ${f}: ${r.http}`);
      }
    }

    for (let k = 0; k < o.crashes; k++) {
      await sleep(800 + ((k * 577) % 1200));
      log(`crash ${k + 1}: SIGKILL instance A`);
      logsOfA.push(a!.output());
      await a!.stop('SIGKILL');
      a = await startGatewayProcess(setup.env);
    }

    const states = new Map<string, string>();
    await eventually(
      async () => {
        for (const t of plan)
          if (!isTerminal(states.get(t.id!) ?? '')) states.set(t.id!, (await readTask(b!.url, ALPHA_KEY, t.id!)).status);
        return plan.every((t) => isTerminal(states.get(t.id!)!));
      },
      120_000,
      250,
    );

    const badContent: string[] = [];
    for (const t of plan) {
      if (states.get(t.id!) !== 'succeeded') continue;
      const d = await download(urlOf(other(t.via)), ALPHA_KEY, t.id!, t.format === 'gemini' ? 'gemini' : 'openai');
      if (d.status !== 200 || !isMp4(d.bytes) || d.bytes.length !== d.length) badContent.push(t.id!);
    }
    logsOfA.push(a.output());
    const finishedA = logsOfA.flatMap(finishedIn);
    const finishedB = finishedIn(b.output());
    const finished = [...finishedA, ...finishedB];
    const exits = [await a.stop('SIGTERM'), await b.stop('SIGTERM')];
    a = b = undefined;
    const db = await setup.openStore();
    const audit = await auditStore(db.knex, setup.dir).finally(() => db.close());
    const succeeded = plan.filter((t) => states.get(t.id!) === 'succeeded').map((t) => t.id!);
    return {
      tasks: plan.length,
      crashes: o.crashes,
      notTerminal: plan.filter((t) => !isTerminal(states.get(t.id!) ?? '')).map((t) => t.id ?? t.prompt),
      unreadableAcross,
      badContent,
      // a crash may cut a render short and leave it to be redone: counted only without crashes
      renderedTwice: o.crashes ? [] : succeeded.filter((id) => renders.count(id) !== 1),
      deliveredTwice: succeeded.filter((id) => deliveries.count(id) > 1 + o.crashes || (!o.crashes && deliveries.count(id) !== 1)),
      finishedTwice: plan.map((t) => t.id!).filter((id) => finished.filter((f) => f === id).length > 1),
      finishedBy: { a: finishedA.length, b: finishedB.length },
      exits,
      audit,
    };
  } finally {
    renders.close();
    deliveries.close();
    await a?.stop('SIGKILL');
    await b?.stop('SIGKILL');
    await setup.cleanup();
  }
}
