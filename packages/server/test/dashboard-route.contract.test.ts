import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { DASHBOARD_CSP, dashboardRouter } from '../src/dashboard-route';
import { startTestGateway, type TestGateway } from './support/test-gateway';

/** /dashboard: the built app with a strict CSP, client routes falling back to index.html, a 503 without a build. */
describe('the dashboard route', () => {
  let dist: string;
  let app: express.Express;
  beforeAll(() => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'dash-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><div id="root"></div><script type="module" src="/dashboard/assets/app.js"></script>',
    );
    writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
    app = express().use(dashboardRouter(dist));
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('serves index.html with a strict CSP and nosniff', async () => {
    const res = await request(app).get('/dashboard/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('id="root"');
    const csp = res.headers['content-security-policy'];
    expect(csp).toBe(DASHBOARD_CSP);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('serves hashed assets with their type and a long cache', async () => {
    const res = await request(app).get('/dashboard/assets/app.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers client routes with index.html and a missing file with 404', async () => {
    const route = await request(app).get('/dashboard/tasks/task_123');
    expect(route.status).toBe(200);
    expect(route.text).toContain('id="root"');
    const missing = await request(app).get('/dashboard/assets/nope.js');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('redirects /dashboard to /dashboard/ and refuses writes', async () => {
    const res = await request(app).get('/dashboard');
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/dashboard/');
    expect((await request(app).post('/dashboard/').send({})).status).toBe(405);
  });

  it('answers a clear 503 when the dashboard is not built', async () => {
    const bare = express().use(dashboardRouter(path.join(dist, 'not-there')));
    const res = await request(bare).get('/dashboard/keys');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/not built.*npm ci/);
  });

  describe('in the gateway', () => {
    let gw: TestGateway;
    beforeAll(async () => {
      gw = await startTestGateway({ listen: false });
    });
    afterAll(async () => gw.stop());

    it('is mounted at /dashboard with its headers, built or not', async () => {
      const res = await request(gw.app).get('/dashboard/');
      expect([200, 503]).toContain(res.status);
      expect(res.headers['content-security-policy']).toBe(DASHBOARD_CSP);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });
  });
});
