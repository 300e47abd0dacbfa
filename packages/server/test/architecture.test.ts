import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The dependency rule of docs/architecture.md: arrows point inward. */
const PACKAGES = path.resolve(__dirname, '../..');
/**
 * Everything the core may import: the node built-ins it uses (ids, hashes, signatures, address checks), and from npm
 * only re2js (pure JS, no I/O: RE2's linear-time engine for the guardrails' deny patterns, issue 38).
 */
const CORE_MAY_IMPORT = ['node:crypto', 'node:net', 're2js'];
const coreRefuses = (spec: string) => !CORE_MAY_IMPORT.includes(spec);

function allowedInternal(pkg: string): (dep: string) => boolean {
  if (pkg === 'server') return () => true;
  if (pkg === 'core') return () => false;
  if (pkg === 'http-kit' || pkg === 'provider-kit' || pkg.startsWith('store-')) return (d) => d === 'core';
  // testkit runs the adapter contract's conformance cases (provider-kit's testing entry) against its fakes
  if (pkg === 'testkit') return (d) => d === 'core' || d === 'provider-kit';
  // the rate-limit store on Redis: an outbound adapter of the core's RateLimitStore port
  if (pkg === 'rate-limit-redis') return (d) => d === 'core';
  // dashboard single sign-on: routes over http-kit, sessions behind the core's SsoSessionStore port
  if (pkg === 'sso') return (d) => d === 'core' || d === 'http-kit';
  // metrics, the request observer and traces: the stream count from http-kit, task figures through a core port
  if (pkg === 'observability') return (d) => d === 'core' || d === 'http-kit';
  // the admin CLI's commands: admin API calls on the core's types at wire-admin's paths, and the adapter conformance kit
  if (pkg === 'cli') return (d) => d === 'core' || d === 'wire-admin' || d === 'provider-kit';
  // the dashboard is a browser app: it reaches the gateway through its HTTP APIs only, never through its code
  if (pkg === 'dashboard') return () => false;
  if (pkg.startsWith('wire-')) return (d) => d === 'core' || d === 'http-kit';
  // a built-in adapter uses the provider contract and nothing else: the core's names reach it through provider-kit
  // (src/contract-core.ts), exactly as they reach an adapter loaded from outside (issue 27)
  if (pkg.startsWith('provider-')) return (d) => d === 'provider-kit';
  return () => false;
}

/** A package's test-support files (`src/testing/`, its `@gateway/<pkg>/testing` entry): they, and nothing else, may use the testkit. */
const isTestSupport = (file: string) => file.split(path.sep).includes('testing');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    if (statSync(p).isDirectory()) return f === '__fixtures__' ? [] : sourceFiles(p);
    return /\.tsx?$/.test(p) && !/\.test\.tsx?$/.test(p) ? [p] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [
    ...text.matchAll(
      /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)|import\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g,
    ),
  ];
  return specs.map((m) => (m[1] ?? m[2] ?? m[3] ?? m[4])!).filter((s) => !s.startsWith('.'));
}

const packages = readdirSync(PACKAGES).filter((p) => statSync(path.join(PACKAGES, p, 'package.json'), { throwIfNoEntry: false }));

describe('dependency rule', () => {
  it.each(packages)('%s depends only on what the rule allows', (pkg) => {
    const manifest = JSON.parse(readFileSync(path.join(PACKAGES, pkg, 'package.json'), 'utf8'));
    const allowed = allowedInternal(pkg);
    const declared = Object.keys(manifest.dependencies ?? {});
    const declaredForTests = Object.keys(manifest.devDependencies ?? {});
    const violations: string[] = [];
    for (const d of declared) {
      if ((pkg === 'core' && coreRefuses(d)) || (d.startsWith('@gateway/') && !allowed(d.slice(9))))
        violations.push(`package.json depends on ${d}`);
    }
    for (const file of sourceFiles(path.join(PACKAGES, pkg, 'src'))) {
      for (const spec of importsOf(file)) {
        const rel = path.relative(PACKAGES, file);
        if (pkg === 'core') {
          if (coreRefuses(spec)) violations.push(`${rel} imports ${spec}, not on the core's list`);
        } else if (spec.startsWith('@gateway/')) {
          const target = spec.slice(9).split('/')[0];
          if (target === 'testkit' && isTestSupport(file)) {
            if (!declaredForTests.includes('@gateway/testkit')) violations.push(`${rel} imports ${spec} without declaring it`);
          } else if (target === 'server' || !allowed(target!)) violations.push(`${rel} imports ${spec}`);
          else if (!declared.includes(`@gateway/${target}`)) violations.push(`${rel} imports ${spec} without declaring it`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it('refuses the core whatever is not on its list: a bare built-in name, another built-in, npm, a sibling', () => {
    const asked = ['node:crypto', 'node:net', 'crypto', 'node:fs', 'zod', '@gateway/provider-kit'];
    expect(asked.filter(coreRefuses)).toEqual(['crypto', 'node:fs', 'zod', '@gateway/provider-kit']);
  });

  it('every package has a README', () => {
    expect(packages.filter((p) => !statSync(path.join(PACKAGES, p, 'README.md'), { throwIfNoEntry: false }))).toEqual([]);
  });
});

/**
 * The registry rule: a wire format's paths and error shape are named in its own package only. Everything else (the
 * server above all) reaches them through the format's descriptor (server/src/wire-formats.ts). Outbound adapters
 * and testkit are exempt: they speak the upstreams' APIs, whose paths happen to be the same; so is the dashboard,
 * a client of this gateway's API.
 */
/**
 * Links one format hands out to another's route, each a debt with its reason. The task API's `content.video_url`
 * points at the one video download (issue 13 moves the byte-range download into shared code).
 */
const KNOWN_CROSS_LINKS = [
  'wire-video-tasks → wire-openai-videos /v1/videos/{}/content',
  // @google/genai 3.x reads a batch at GET /v1/batches/{name}, OpenAI's batch path: Gemini's route takes the callers
  // that authenticate as the SDK does (x-goog-api-key, ?key=) and passes the others on to OpenAI's
  'wire-openai-batches → wire-gemini-content /v1/batches/{}',
];

describe('registry rule', () => {
  const wirePackages = packages.filter((p) => p.startsWith('wire-'));
  // the dashboard is exempt too: a browser client of the gateway's own HTTP API, it names the paths it calls
  const exempt = (pkg: string) => pkg.startsWith('provider-') || pkg === 'testkit' || pkg === 'dashboard';
  /** `/v1/videos/{id}`, `/v1/videos/:id` and `/v1/videos/${id}` alike; a colon verb (`{model}:generateContent`) stays. */
  const normalize = (p: string) => p.replace(/\$?\{[^}]*\}|(?<=\/):\w+/g, '{}');
  /** Code only: what comments say about other formats' paths is documentation. */
  const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

  interface Owned {
    paths: Set<string>;
    shapes: string[];
  }
  const owned = new Map<string, Owned>(
    wirePackages.map((pkg) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const exports = require(`@gateway/${pkg}`) as Record<string, unknown>;
      const descriptors = Object.values(exports).filter(
        (v): v is { routes: Array<{ path: string }> } => typeof v === 'object' && v !== null && 'routes' in v && 'errorShapes' in v,
      );
      const text = sourceFiles(path.join(PACKAGES, pkg, 'src'))
        .map((f) => readFileSync(f, 'utf8'))
        .join('\n');
      const shapes = [...text.matchAll(/export const (\w+ErrorShape|render\w*Error)\b/g)].map((m) => m[1]!);
      return [pkg, { paths: new Set(descriptors.flatMap((d) => d.routes.map((r) => normalize(r.path)))), shapes }] as const;
    }),
  );

  it('every wire package exports one descriptor', () => {
    expect(wirePackages.filter((pkg) => owned.get(pkg)!.paths.size === 0)).toEqual([]);
  });

  it.each(packages.filter((p) => !exempt(p)))('%s names no other wire format’s paths or error shape', (pkg) => {
    const violations: string[] = [];
    for (const file of sourceFiles(path.join(PACKAGES, pkg, 'src'))) {
      const rel = path.relative(PACKAGES, file);
      const text = code(readFileSync(file, 'utf8'));
      // whole string literals, and the versioned API paths inside template strings (`${base}/v1/videos/${id}`)
      const literals = [
        ...[...text.matchAll(/(['"`])(\/[^'"`\s]*)\1/g)].map((m) => m[2]),
        ...[...text.matchAll(/\/v1(?:beta)?\/(?:[\w.:-]|\$\{[^}]*\}|\/)*/g)].map((m) => m[0]),
      ];
      for (const [owner, { paths, shapes }] of owned) {
        if (owner === pkg) continue;
        for (const l of literals) {
          const named = `${pkg} → ${owner} ${normalize(l!)}`;
          if (paths.has(normalize(l!)) && !KNOWN_CROSS_LINKS.includes(named)) violations.push(`${rel} names ${owner}'s path ${l}`);
        }
        for (const s of shapes) if (new RegExp(`\\b${s}\\b`).test(text)) violations.push(`${rel} names ${owner}'s ${s}`);
      }
    }
    expect(violations).toEqual([]);
  });
});

describe('the composition root builds stores in one place', () => {
  it('no file of packages/server/src but repositories.ts imports a Knex* class (issue 35)', () => {
    const root = path.join(PACKAGES, 'server/src');
    const offenders = sourceFiles(root).filter((f) => {
      if (path.relative(root, f) === 'repositories.ts') return false;
      return /import\s*{[^}]*\bKnex[A-Z]\w*[^}]*}\s*from\s*'@gateway\/store-postgres'/s.test(readFileSync(f, 'utf8'));
    });
    expect(offenders.map((f) => path.relative(root, f))).toEqual([]);
  });
});
