import { eventually } from '@gateway/testkit';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ALPHA_KEY } from '../../support/test-gateway';
import { isMp4 } from '../../support/video-fixtures';
import { startGatewayProcess, type GatewayProcess } from '../../support/gateway-process';
import { processSetup } from './process-setup';
import { auditStore, type StoreAudit } from './store-audit';
import { openStream, sleep, sseEvents, textCall } from './text-clients';
import { createTask, download, isTerminal, readTask, VIDEO_FORMATS, type PlannedTask } from './video-clients';

/**
 * The crash run: a gateway process (DATA_DIR on disk; PGlite there, or a Postgres schema of its own) is SIGKILLed
 * `kills` times while it renders videos and streams a response, and restarted each time; clients retry their
 * creations with the same Idempotency-Key. After the last restart every accepted task must reach a terminal state
 * with whole content, no cut response may be stored, and the store audit must find nothing half-written.
 */
export interface CrashRunOptions {
  postgres: boolean;
  tasks: number;
  kills: number;
  /** chooses each kill's instant (printed with the result, so a failing run can be replayed) */
  seed: number;
  log?: (line: string) => void;
}

export interface CrashRunReport {
  store: 'pglite' | 'postgres';
  tasks: number;
  accepted: number;
  kills: number;
  streamsCut: number;
  /** planned tasks that never got an id, or whose record is gone */
  lost: string[];
  notTerminal: string[];
  badContent: string[];
  /** cut streams whose response can be read or continued after the restart */
  cutResponsesVisible: string[];
  /** the exit code of the final graceful stop (SIGTERM) */
  gracefulExit: number | null;
  audit: StoreAudit;
  elapsedMs: number;
}

/** A render under way: ffmpeg writes the simulator's output to a `.partial` first. */
const rendering = (dir: string) => readdirSync(path.join(dir, 'simulator', 'videos')).some((f) => f.endsWith('.partial'));

interface CutStream {
  responseId: string;
  completed: boolean;
}

/** A stored (responses-format) stream, read until a few deltas have arrived; `ended` says whether it completed. */
async function startStream(url: string): Promise<{ responseId: string; ended: Promise<CutStream> }> {
  // twelve words in: the simulator's answer echoes them, about twenty chunks 400 ms apart (~8 s)
  const { res } = await openStream(
    url,
    textCall('responses', ALPHA_KEY, 'sim-chat', true, 'tell me a long story about a crash that happens in the middle'),
  );
  let text = '';
  const ended = new Promise<CutStream>((resolve) => {
    const done = () =>
      resolve({
        responseId: sseEvents(text).find((e) => e.event === 'response.created')?.data?.response?.id,
        completed: text.includes('response.completed'),
      });
    res.on('end', done);
    res.on('error', done);
    res.on('close', done);
  });
  res.on('data', (d) => (text += d));
  await eventually(() => (text.match(/response\.output_text\.delta/g)?.length ?? 0) >= 2, 8000, 10);
  return { responseId: sseEvents(text).find((e) => e.event === 'response.created')?.data?.response?.id, ended };
}

export async function runCrashScenario(o: CrashRunOptions): Promise<CrashRunReport> {
  const log = o.log ?? (() => undefined);
  const started = Date.now();
  const setup = await processSetup({ postgres: o.postgres });
  const plan: PlannedTask[] = Array.from({ length: o.tasks }, (_, i) => ({
    format: VIDEO_FORMATS[i % 3]!,
    prompt: `crash task ${i}${i % 5 === 4 ? ' [sim:fail]' : ''}`,
    idempotencyKey: `crash-${i}`,
  }));
  const cut: CutStream[] = [];
  let gw: GatewayProcess | undefined;
  // mulberry32: a small seeded generator, so a kill instant can be replayed from the printed seed
  let state = o.seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  try {
    for (let k = 0; k < o.kills; k++) {
      gw = await startGatewayProcess(setup.env);
      const url = gw.url;
      const creating = Promise.all(plan.map((t) => createTask(url, ALPHA_KEY, t).catch(() => undefined))); // the kill cuts some off
      // SIGKILL while a video renders (once the tasks are done: a moment later) and the stream is mid-way: the stream
      // opens once a render is under way (it runs ~8 s, so a loaded machine's slow first render cannot outlast it)
      await eventually(() => rendering(setup.dir), 5000, 10);
      const stream = await startStream(url);
      await sleep(Math.floor(random() * 700));
      log(
        `run ${k + 1}: SIGKILL with ${plan.filter((t) => t.id).length}/${plan.length} tasks created, a render ${rendering(setup.dir) ? 'under way' : 'not under way'}`,
      );
      await gw.stop('SIGKILL');
      gw = undefined;
      await creating;
      cut.push(await stream.ended);
    }
    gw = await startGatewayProcess(setup.env);
    const url = gw.url;
    // creations that were lost with a process are retried with their key; the others come back as they were
    for (const t of plan) await createTask(url, ALPHA_KEY, t);
    const states = new Map<string, string>();
    await eventually(
      async () => {
        for (const t of plan)
          if (t.id && !isTerminal(states.get(t.id) ?? '')) states.set(t.id, (await readTask(url, ALPHA_KEY, t.id)).status);
        return plan.every((t) => t.id && isTerminal(states.get(t.id)!));
      },
      60_000,
      250,
    );
    const badContent: string[] = [];
    for (const t of plan) {
      if (states.get(t.id!) !== 'succeeded') continue;
      const d = await download(url, ALPHA_KEY, t.id!, t.format === 'gemini' ? 'gemini' : 'openai');
      if (d.status !== 200 || !isMp4(d.bytes) || d.bytes.length !== d.length) badContent.push(t.id!);
    }
    const cutResponsesVisible: string[] = [];
    for (const c of cut) {
      if (!c.responseId || c.completed) continue; // a stream that completed before the kill is rightly stored
      const read = await fetch(`${url}/v1/responses/${c.responseId}`, { headers: { authorization: `Bearer ${ALPHA_KEY}` } });
      const more = await fetch(`${url}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ALPHA_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sim-chat', input: 'go on', previous_response_id: c.responseId }),
      });
      if (read.status !== 404 || more.status < 400)
        cutResponsesVisible.push(`${c.responseId} (read ${read.status}, continued ${more.status})`);
    }
    const gracefulExit = await gw.stop('SIGTERM');
    gw = undefined;
    const db = await setup.openStore();
    const audit = await auditStore(db.knex, setup.dir, { pricedModels: ['sim-video-2.0'] }).finally(() => db.close());
    const report: CrashRunReport = {
      store: setup.store,
      tasks: plan.length,
      accepted: plan.filter((t) => t.id).length,
      kills: o.kills,
      streamsCut: cut.filter((c) => !c.completed).length,
      lost: plan.filter((t) => !t.id).map((t) => t.prompt),
      notTerminal: plan.filter((t) => t.id && !isTerminal(states.get(t.id) ?? '')).map((t) => `${t.id} (${states.get(t.id!)})`),
      badContent,
      cutResponsesVisible,
      gracefulExit,
      audit,
      elapsedMs: Date.now() - started,
    };
    // one record per planned task: fewer is a lost task, more a creation that ran twice
    if (audit.tasks < plan.length) report.lost.push(`${plan.length - audit.tasks} task records`);
    if (audit.tasks > plan.length) audit.violations.push(`${audit.tasks - plan.length} tasks created twice`);
    return report;
  } finally {
    await gw?.stop('SIGKILL');
    await setup.cleanup();
  }
}
