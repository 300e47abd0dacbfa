import { describeWithService } from '@gateway/testkit';
import { LONG, recordFigure } from './support/figures';
import { startGatewayProcess } from '../support/gateway-process';
import { runTwoInstances } from './support/multi-instance';
import { processSetup } from './support/process-setup';

/**
 * Two gateway processes on one Postgres (a schema of its own per run) sharing DATA_DIR: they share the task
 * queue (both finish tasks), each task is rendered, delivered and finished exactly once, and a task created
 * through one instance is readable and downloadable through the other in every format. Needs TEST_DATABASE_URL
 * (PGlite is one process's database). `npm run reliability` adds more tasks and SIGKILLs of one instance.
 */
jest.setTimeout(240_000);

describeWithService('TEST_DATABASE_URL', 'two instances on one Postgres', () => {
  it('instances started together on a fresh schema all come up (their migrations take turns)', async () => {
    const rounds = LONG ? 5 : 1;
    recordFigure('instances started together on a fresh schema', 3 * rounds);
    for (let round = 0; round < rounds; round++) {
      const setup = await processSetup({ postgres: true });
      const started = await Promise.allSettled([1, 2, 3].map(() => startGatewayProcess(setup.env)));
      try {
        expect(started.map((s) => (s.status === 'fulfilled' ? 'up' : String(s.reason).slice(0, 400)))).toEqual(['up', 'up', 'up']);
      } finally {
        for (const s of started) if (s.status === 'fulfilled') await s.value.stop('SIGTERM');
        await setup.cleanup();
      }
    }
  });

  it('share the queue; each task processed exactly once; readable through the other instance', async () => {
    const r = await runTwoInstances({ tasks: LONG ? 40 : 8, crashes: LONG ? 3 : 0 });
    recordFigure('tasks shared by two instances', r.tasks);
    recordFigure('crashes survived (two instances)', r.crashes);
    recordFigure('tasks lost (two instances)', r.notTerminal.length);
    expect({
      notTerminal: r.notTerminal,
      unreadableAcross: r.unreadableAcross,
      badContent: r.badContent,
      renderedTwice: r.renderedTwice,
      deliveredTwice: r.deliveredTwice,
      finishedTwice: r.finishedTwice,
      violations: r.audit.violations,
      exits: r.exits,
    }).toEqual({
      notTerminal: [],
      unreadableAcross: [],
      badContent: [],
      renderedTwice: [],
      deliveredTwice: [],
      finishedTwice: [],
      violations: [],
      exits: [0, 0],
    });
    expect(r.audit.tasks).toBe(r.tasks);
    // the queue is shared: both processes finished tasks
    expect(r.finishedBy.a).toBeGreaterThan(0);
    expect(r.finishedBy.b).toBeGreaterThan(0);
    if (!r.crashes) expect(r.finishedBy.a + r.finishedBy.b).toBe(r.tasks);
  });
});
