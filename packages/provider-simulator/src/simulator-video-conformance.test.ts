import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeVideoModelConformance, fakeMp4, ManualClock } from '@gateway/testkit';
import { SimulatorVideoModel } from './simulator-video-model';

describeVideoModelConformance('simulator', async () => {
  const clock = new ManualClock();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-conf-'));
  const model = new SimulatorVideoModel({
    queuedMs: 60,
    videoLatencyMs: 100,
    dataDir: dir,
    now: clock.now,
    // ffmpeg is the simulator's own business (simulator-video-model.test.ts); the port contract is what matters here
    render: async (_spec, mp4, jpeg) => {
      writeFileSync(mp4, fakeMp4('simulator'));
      writeFileSync(jpeg, Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
    },
  });
  return {
    model,
    advance: (ms) => clock.advance(ms),
    fail: { prompt: 'conformance [sim:fail]', code: 'simulated_failure' },
    reportsQueue: true,
    // it renders the file itself: the parameters it rendered with are the delivered shape
    statedShape: 'rendered',
    unknownRef: 'sim1.bm90LWEtcmVm',
    secrets: [],
    close: async () => rmSync(dir, { recursive: true, force: true }),
  };
});
