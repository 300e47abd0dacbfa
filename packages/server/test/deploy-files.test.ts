import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

// No Docker engine runs here: these read the files and check the properties an operator relies on.
const ROOT = path.resolve(__dirname, '../../..');
const read = (f: string) => readFileSync(path.join(ROOT, f), 'utf8');

/** The Dockerfile as stages of [instruction, arguments] (continuation lines joined, comments dropped). */
function stages(text: string): Array<Array<[string, string]>> {
  const out: Array<Array<[string, string]>> = [];
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  for (const l of lines) {
    const [op, ...rest] = l.split(/\s+/);
    if (op!.toUpperCase() === 'FROM') out.push([]);
    out[out.length - 1]!.push([op!.toUpperCase(), rest.join(' ')]);
  }
  return out;
}

describe('Dockerfile', () => {
  const all = stages(read('Dockerfile'));
  const runtime = all[all.length - 1];
  const args = (op: string) => runtime!.filter(([o]) => o === op).map(([, a]) => a);

  it('is multi-stage and installs production dependencies only', () => {
    expect(all.length).toBeGreaterThanOrEqual(2);
    const installs = all.flatMap((s) => s.filter(([o, a]) => o === 'RUN' && /\bnpm (ci|install)\b/.test(a)).map(([, a]) => a));
    const fullInstalls = installs.filter((a) => /\bnpm ci\b/.test(a) && !/--omit=dev/.test(a));
    expect(fullInstalls).toEqual([]);
    expect(installs.some((a) => /npm ci --omit=dev/.test(a))).toBe(true);
    // the runtime stage installs nothing itself: it copies what the earlier stages built
    expect(args('RUN').filter((a) => /\bnpm\b/.test(a))).toEqual([]);
    expect(args('COPY').some((a) => a.startsWith('--from='))).toBe(true);
  });

  it('runs as a non-root user, with node itself as PID 1 and a health check on /readyz', () => {
    const user = args('USER').pop();
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    const cmd = JSON.parse(args('CMD').pop()!) as string[];
    expect(cmd[0]).toBe('node'); // exec form, so node (not a shell, not npm) receives SIGTERM
    expect(cmd).not.toContain('npm');
    expect(args('ENTRYPOINT')).toEqual([]);
    expect(args('HEALTHCHECK').pop()).toContain('/readyz');
    expect(args('ENV').join(' ')).toContain('NODE_ENV=production');
  });

  it('runs what `npm start` runs: the same node flags and the same bundled entry', () => {
    const cmd = JSON.parse(args('CMD').pop()!) as string[];
    const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
    // `exec`: the shell npm runs becomes node, so npm's SIGTERM reaches the gateway (docs/operations.md)
    const run = start
      .split('&&')
      .pop()!
      .trim()
      .replace(/^exec\s+/, '')
      .split(/\s+/);
    expect(cmd).toEqual(run);
  });
});

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml')) as { services: Record<string, any> };
  const gw = compose.services.gateway;
  const nginx = read('deploy/nginx.conf');

  it('runs PostgreSQL, Redis and at least two gateway replicas behind a proxy', () => {
    expect(compose.services.postgres.image).toMatch(/^postgres:/);
    expect(compose.services.redis.image).toMatch(/^redis:/);
    expect(gw.deploy.replicas).toMatch(/:-([2-9]|\d\d+)\}$/);
    expect(gw.environment.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
    expect(gw.environment.REDIS_URL).toBe('redis://redis:6379');
    expect(compose.services.proxy.volumes.join(' ')).toContain('deploy/nginx.conf');
  });

  it('the proxy re-resolves the replicas, and PUBLIC_BASE_URL is what the proxy serves', () => {
    expect(nginx).toMatch(/resolver 127\.0\.0\.11/);
    expect(nginx).toMatch(/server gateway:8080[^;]*\bresolve\b/);
    expect(nginx).toMatch(/zone \w+/); // `resolve` needs a shared zone
    const published = String(compose.services.proxy.ports[0]).split(':')[0];
    expect(gw.environment.PUBLIC_BASE_URL).toContain(`http://localhost:${published}`);
    expect(nginx).toMatch(/listen 8080/);
  });

  it('does not start without an admin key and a config file, and runs in production mode', () => {
    expect(gw.environment.GATEWAY_ADMIN_KEY).toMatch(/^\$\{GATEWAY_ADMIN_KEY:\?/);
    expect(gw.environment.GATEWAY_CONFIG).toBeDefined();
    const configMount = (gw.volumes as string[]).find((v) => v.endsWith(`:${gw.environment.GATEWAY_CONFIG}:ro`));
    expect(configMount).toMatch(/^\$\{GATEWAY_CONFIG_FILE:\?/);
    expect(gw.environment.NODE_ENV).toBe('production');
  });

  it('has no default database password: compose refuses to start without POSTGRES_PASSWORD', () => {
    expect(compose.services.postgres.environment.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    // the gateway's URL uses the same variable, with no fallback either
    expect(gw.environment.DATABASE_URL).toMatch(/\$\{POSTGRES_PASSWORD:\?[^}]*\}@/);
    expect(read('docker-compose.yml')).not.toMatch(/POSTGRES_PASSWORD:-/);
  });

  it('restarts every service unless stopped, reads provider keys from an env file kept out of git', () => {
    for (const [name, service] of Object.entries(compose.services)) expect([name, service.restart]).toEqual([name, 'unless-stopped']);
    expect([gw.env_file].flat()).toEqual(['./provider-keys.env']);
    expect(read('.gitignore').split('\n')).toContain('provider-keys.env');
    expect(read('deploy/provider-keys.env.example')).toMatch(/^OPENAI_API_KEY=$/m);
  });

  it('checks the proxy’s health through a replica, and starts it once a replica is healthy', () => {
    const proxy = compose.services.proxy;
    const test = (proxy.healthcheck.test as string[]).join(' ');
    expect(test).toMatch(/http:\/\/127\.0\.0\.1:8080\/healthz/);
    expect(nginx).toMatch(/listen 8080/);
    expect(proxy.depends_on.gateway.condition).toBe('service_healthy');
  });
});
