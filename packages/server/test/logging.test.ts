import request from 'supertest';
import { capturedLog } from './support/captured-log';
import { bootstrapConfigKeys } from '../src/bootstrap';
import { buildConfig } from '../src/config';
import { createGateway } from '../src/gateway';
import { ALPHA_KEY, inMemoryGatewayEnv, testConfigFile } from './support/test-gateway';

describe('logging', () => {
  it('writes JSON lines with the request id and never the key or the prompt', async () => {
    const log = capturedLog();
    const gw = await createGateway(await inMemoryGatewayEnv(), {
      config: buildConfig('t', testConfigFile()),
      logger: log.logger,
    });
    await bootstrapConfigKeys(gw.stores, gw.config);
    try {
      const res = await request(gw.app)
        .post('/v1/chat/completions')
        .set('Authorization', `Bearer ${ALPHA_KEY}`)
        .send({ model: 'sim-chat', messages: [{ role: 'user', content: 'SECRET-PROMPT-123' }] });
      expect(res.status).toBe(200);
      await new Promise((r) => setImmediate(r));
      const entry = log.lines.find((e) => e.requestId === res.headers['x-request-id']);
      expect(entry).toMatchObject({ level: 'info', method: 'POST', path: '/v1/chat/completions', status: 200, account: 'alpha' });
      const all = log.text();
      expect(all).not.toContain(ALPHA_KEY);
      expect(all).not.toContain('SECRET-PROMPT-123');
    } finally {
      await gw.close();
    }
  });
});
