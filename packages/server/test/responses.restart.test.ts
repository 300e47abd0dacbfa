import { rmSync } from 'node:fs';
import request from 'supertest';
import { ALPHA_KEY, startTestGateway } from './support/test-gateway';

// Its own file: two gateways on a PGlite data dir take a while to start.
describe('stored responses survive a restart', () => {
  it('previous_response_id and compaction items still work after the gateway restarts on the same data dir', async () => {
    const first = await startTestGateway({ listen: false, env: { inMemoryDatabase: false } });
    const dataDir = first.dataDir;
    let made: any;
    let compacted: any;
    try {
      made = (
        await request(first.app)
          .post('/v1/responses')
          .set('Authorization', `Bearer ${ALPHA_KEY}`)
          .send({ model: 'sim-chat', input: 'remember this' })
      ).body;
      compacted = (
        await request(first.app)
          .post('/v1/responses/compact')
          .set('Authorization', `Bearer ${ALPHA_KEY}`)
          .send({ model: 'sim-chat', previous_response_id: made.id })
      ).body;
    } finally {
      await first.close();
    }
    const second = await startTestGateway({ listen: false, env: { inMemoryDatabase: false, dataDir } });
    try {
      const follow = await request(second.app)
        .post('/v1/responses')
        .set('Authorization', `Bearer ${ALPHA_KEY}`)
        .send({ model: 'sim-chat', input: 'and now?', previous_response_id: made.id });
      expect(follow.status).toBe(200);
      expect(follow.body.usage.input_tokens).toBeGreaterThan(made.usage.input_tokens + made.usage.output_tokens);
      const fromCompaction = await request(second.app)
        .post('/v1/responses')
        .set('Authorization', `Bearer ${ALPHA_KEY}`)
        .send({ model: 'sim-chat', input: [...compacted.output, { role: 'user', content: 'next' }] });
      expect(fromCompaction.status).toBe(200);
    } finally {
      await second.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000); // two gateways opening PGlite on disk in turn
});
