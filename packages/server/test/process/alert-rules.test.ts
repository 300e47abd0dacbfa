import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { ALPHA_KEY, startTestGateway, type TestGateway } from '../support/test-gateway';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '../../../..');
const RULES = path.join(ROOT, 'deploy/prometheus-alerts.yml');
/** Debian's `prometheus` package provides it (.ci/run installs it where apt can). */
const PROMTOOL = ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((p) => existsSync(p));

/** gateway_requests_total's series in one scrape: the series selector as promtool writes it, and its value. */
function requestCounts(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^(gateway_requests_total\{.*\})\s+(\S+)$/.exec(line);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}

/**
 * promtool's input series for the traffic seen between two scrapes, kept up for 20 minutes: each series grows every
 * minute by what it grew between them (the rate the gateway really saw, held long enough for `for: 5m`).
 */
function inputSeries(before: Map<string, number>, after: Map<string, number>) {
  return [...after].map(([series, value]) => {
    const start = before.get(series) ?? 0;
    return { series, values: `${start}+${value - start}x20` };
  });
}

const chat = (gw: TestGateway, model: string, content = 'hello') =>
  fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ALPHA_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content }] }),
  });

const scrape = async (gw: TestGateway) => requestCounts(await (await fetch(`${gw.url}/metrics`)).text());

/** Runs `promtool test rules` on the alert file; resolves with its exit code and output. */
function promtoolTest(tests: object[]): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-promtool-'));
  const file = path.join(dir, 'test.yml');
  writeFileSync(file, stringify({ rule_files: [RULES], evaluation_interval: '1m', tests }));
  return new Promise((resolve) =>
    execFile(PROMTOOL!, ['test', 'rules', file], (err, stdout, stderr) => {
      rmSync(dir, { recursive: true, force: true });
      resolve({ code: err ? Number(err.code ?? 1) : 0, output: `${stdout}${stderr}` });
    }),
  );
}

/** The Gateway5xx alert as it would fire: its labels and annotations, read from the rules file. */
function gateway5xxAlert() {
  const rules = (parse(readFileSync(RULES, 'utf8')) as { groups: Array<{ rules: Array<Record<string, any>> }> }).groups.flatMap(
    (g) => g.rules,
  );
  const rule = rules.find((r) => r.alert === 'Gateway5xx')!;
  return { exp_labels: rule.labels, exp_annotations: rule.annotations };
}

(PROMTOOL ? describe : describe.skip)('the 5xx alert of docs/operations.md, evaluated by promtool on real scrapes', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.stop());

  it('does not fire on tenants asking for models outside their group (503 model_not_in_group), fires on upstream failures', async () => {
    const first = await scrape(gw);
    // a tenant's mistake: a third of the answers are 503 model_not_in_group
    for (let i = 0; i < 10; i++) expect((await chat(gw, 'sim-chat')).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      const refused = await chat(gw, 'sim-video-2.5');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('x-should-retry')).toBe('false');
    }
    const second = await scrape(gw);
    const refusals = [...second].filter(([s]) => s.includes('status="503"') && s.includes('client_fault="true"'));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]![1]).toBe(5);

    // the platform's failure: upstream errors (the simulator fails on request)
    for (let i = 0; i < 10; i++) expect((await chat(gw, 'sim-chat')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await chat(gw, 'sim-chat', '[sim:fail] please')).status).toBeGreaterThanOrEqual(500);
    const third = await scrape(gw);

    const result = await promtoolTest([
      {
        name: 'tenant mistakes',
        interval: '1m',
        input_series: inputSeries(first, second),
        alert_rule_test: [{ eval_time: '15m', alertname: 'Gateway5xx', exp_alerts: [] }],
      },
      {
        name: 'upstream failures',
        interval: '1m',
        input_series: inputSeries(second, third),
        alert_rule_test: [{ eval_time: '15m', alertname: 'Gateway5xx', exp_alerts: [gateway5xxAlert()] }],
      },
    ]);
    expect(result.output).toContain('SUCCESS');
    expect(result.code).toBe(0);
  });
});
