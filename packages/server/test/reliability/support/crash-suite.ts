import { LONG, recordFigure } from './figures';
import { runCrashScenario } from './crash-scenario';

/** The crash-recovery test body, for one store (one file per store, so jest runs them side by side). */
export function describeCrashRecovery(postgres: boolean): void {
  it('SIGKILL at a seeded random instant mid-render and mid-stream, restart: nothing lost or half-written, every task charged exactly once with its usage row', async () => {
    const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const r = await runCrashScenario({ postgres, tasks: LONG ? 24 : 6, kills: LONG ? 4 : 1, seed });
    recordFigure(`crashes survived (${r.store})`, r.kills);
    recordFigure(`video tasks through crashes (${r.store})`, r.accepted);
    recordFigure(`streams cut by a crash (${r.store})`, r.streamsCut);
    recordFigure(`tasks lost (${r.store})`, r.lost.length + r.notTerminal.length);
    recordFigure(`leftover .partial files after crashes (${r.store})`, r.audit.leftoverPartials);
    expect({
      seed,
      lost: r.lost,
      notTerminal: r.notTerminal,
      badContent: r.badContent,
      cutResponsesVisible: r.cutResponsesVisible,
      violations: r.audit.violations,
      gracefulExit: r.gracefulExit,
    }).toEqual({ seed, lost: [], notTerminal: [], badContent: [], cutResponsesVisible: [], violations: [], gracefulExit: 0 });
    expect(r.accepted).toBe(r.tasks);
    expect(r.streamsCut).toBe(r.kills);
    expect(r.audit.byStatus.succeeded).toBeGreaterThan(0);
    expect(r.audit.byStatus.failed).toBeGreaterThan(0); // the [sim:fail] ones
    expect(r.audit.taskCharges).toBeGreaterThan(0); // billing ran, so a double charge would have shown
  });
}
