import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startFakeUpstream, type FakeDialectName, type FakeUpstream } from '@gateway/testkit';
import request from 'supertest';
import { adminApiAt, runCommand } from '@gateway/cli';
import { buildConfig, type GatewayConfigFile } from '../src/config';
import { BETA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

/**
 * Docs that work as written: the config files and request bodies the docs show are files under docs/examples/. A page
 * shows one inline after `<!-- example: examples/<file> -->`, and this test checks the block equals the file; each
 * config file loads with the gateway's own loader, and the coding agents' config starts a gateway that serves each
 * agent's default request body (the upstreams are fake servers on 127.0.0.1, their URLs the only thing added).
 */
const ROOT = path.join(__dirname, '../../..');
const DOCS = path.join(ROOT, 'docs');
const EXAMPLES = path.join(DOCS, 'examples');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

const pages = [
  ...['', 'formats', 'providers'].flatMap((d) =>
    readdirSync(path.join(DOCS, d))
      .filter((f) => f.endsWith('.md'))
      .map((f) => path.join(DOCS, d, f)),
  ),
  path.join(ROOT, 'README.md'),
];
const rel = (p: string) => path.relative(ROOT, p);
const examples = filesUnder(EXAMPLES).map((f) => path.relative(EXAMPLES, f));
const readExample = (name: string) => JSON.parse(readFileSync(path.join(EXAMPLES, name), 'utf8'));

/** Inline copies: the marker, then the fenced block that must equal the file. */
const MARKED = /<!-- example: examples\/(\S+) -->\n+```json\n([\s\S]*?)```/g;
const JSON_BLOCK = /```json\n([\s\S]*?)```/g;
/** A config file, or an entry of one (a model or a provider). */
function isConfig(o: any): boolean {
  if (typeof o !== 'object' || o === null) return false;
  if ('providers' in o || 'groups' in o) return true;
  if (Array.isArray(o.models) && o.models.some((m: unknown) => typeof m === 'object' && m !== null && 'kind' in m)) return true;
  return ('kind' in o && ('provider' in o || 'deployments' in o)) || ('type' in o && ('apiKey' in o || 'baseUrl' in o));
}

/** Pages whose config blocks are still written inline, without a file: this list may only shrink (the test fails when a listed page has none left). */
const INLINE_CONFIG_PAGES = ['docs/providers/writing-an-adapter.md'];

/** Every `env:NAME` a config names, given a value, as the operator's environment would. */
function envFor(file: unknown): NodeJS.ProcessEnv {
  const names = [...JSON.stringify(file).matchAll(/"env:([A-Z0-9_]+)"/g)].map((m) => m[1]);
  // `sk-`: the shape a gateway key must have, harmless for an upstream key
  return Object.fromEntries(names.map((n) => [n, `sk-example-${n!.toLowerCase()}-0001`]));
}

describe('docs/examples', () => {
  it('every inline copy equals its file, and every file is shown or linked from a page', () => {
    const referenced = new Set<string>();
    for (const page of pages) {
      const text = readFileSync(page, 'utf8');
      for (const [, name, block] of text.matchAll(MARKED)) {
        expect({ page: rel(page), name, block: JSON.parse(block!) }).toEqual({ page: rel(page), name, block: readExample(name!) });
        referenced.add(name!);
      }
      for (const [, name] of text.matchAll(/\((?:\.\.\/|\.\/)?(?:docs\/)?examples\/([^)\s]+)\)/g)) referenced.add(name!);
    }
    expect(examples.filter((e) => !referenced.has(e))).toEqual([]);
  });

  it('a config block on a page is a file under docs/examples, but on the pages still listed', () => {
    const inline: string[] = [];
    for (const page of pages) {
      const text = readFileSync(page, 'utf8');
      const marked = new Set([...text.matchAll(MARKED)].map((m) => m[2]));
      for (const [, block] of text.matchAll(JSON_BLOCK)) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(block!);
        } catch {
          continue; // a fragment, not a file
        }
        if (isConfig(parsed) && !marked.has(block)) inline.push(rel(page));
      }
    }
    expect([...new Set(inline)].sort()).toEqual([...INLINE_CONFIG_PAGES].sort());
  });

  // a provider entry (`*.provider.json`) loads as the one provider of a config file
  it.each(examples.filter((e) => e.endsWith('.provider.json')))("%s loads with the gateway's config loader", (name) => {
    const entry = readExample(name);
    const config = buildConfig(name, { providers: [entry], models: [], groups: [] }, envFor(entry));
    expect(config.file.providers.map((p) => p.id)).toEqual([entry.id]);
  });

  const configs = examples.filter((e) => e.endsWith('.config.json'));
  it.each(configs)("%s loads with the gateway's config loader", (name) => {
    const file = readExample(name);
    const config = buildConfig(name, file, envFor(file));
    expect(config.catalogue.all().map((m) => m.id)).toEqual(expect.arrayContaining(file.models.map((m: { id: string }) => m.id)));
  });
});

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** Each agent's default request body, where it goes, and what must reach the upstream. */
const AGENT_REQUESTS: Array<{
  file: string;
  path: string;
  headers: (key: string) => Record<string, string>;
  provider: string;
  upstreamSees: (body: any) => unknown;
  expected: unknown;
}> = [
  {
    file: 'requests/claude-code.messages.json',
    path: '/v1/messages',
    headers: (key) => ({ Authorization: `Bearer ${key}`, 'anthropic-version': '2023-06-01' }),
    provider: 'anthropic',
    upstreamSees: (b) => ({ model: b.model, thinking: b.thinking, output_config: b.output_config }),
    expected: { model: 'claude-sonnet-4-5', thinking: { type: 'adaptive' }, output_config: { effort: 'high' } },
  },
  {
    file: 'requests/codex.responses.json',
    path: '/v1/responses',
    headers: bearer,
    provider: 'openai',
    upstreamSees: (b) => ({ model: b.model, effort: b.reasoning?.effort }),
    expected: { model: 'gpt-5-codex', effort: 'medium' },
  },
  {
    file: 'requests/gemini-cli.generate-content.json',
    path: '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    headers: (key) => ({ 'x-goog-api-key': key }),
    provider: 'google',
    upstreamSees: (b) => b.generationConfig?.thinkingConfig,
    expected: { includeThoughts: true, thinkingBudget: 8192 },
  },
];

/**
 * Request bodies sent to the zero-config simulator models, and error bodies: the answer to the request given must
 * equal the file.
 */
const ZERO_CONFIG_REQUESTS: Array<{ file: string; path: string; headers: (key: string) => Record<string, string>; body?: object }> = [
  { file: 'requests/quickstart.chat.json', path: '/v1/chat/completions', headers: bearer },
  { file: 'requests/video-tasks.create.json', path: '/v1/contents/generations/tasks', headers: bearer },
  {
    file: 'requests/gemini-video.predict.json',
    path: '/v1beta/models/sim-video-2.0:predictLongRunning',
    headers: (key) => ({ 'x-goog-api-key': key }),
  },
  {
    file: 'errors/openai-chat.empty-messages.json',
    path: '/v1/chat/completions',
    headers: bearer,
    body: { model: 'sim-chat', messages: [] },
  },
  {
    file: 'errors/anthropic-messages.empty-messages.json',
    path: '/v1/messages',
    headers: (key) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' }),
    body: { model: 'sim-chat', max_tokens: 64, messages: [] },
  },
  {
    file: 'errors/gemini.empty-contents.json',
    path: '/v1beta/models/sim-chat:generateContent',
    headers: (key) => ({ 'x-goog-api-key': key }),
    body: { contents: [] },
  },
];

describe('request bodies and error answers of the docs, on the simulator models', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ listen: false });
  });
  afterAll(() => gw.stop());

  it.each(ZERO_CONFIG_REQUESTS)('$file', async (r) => {
    const res = await request(gw.app)
      .post(r.path)
      .set(r.headers(BETA_KEY))
      .send(r.body ?? readExample(r.file));
    if (r.body) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual(readExample(r.file));
    } else {
      expect(res.status).toBe(200);
    }
  });
});

describe("docs/coding-agents.md: the config starts and serves each agent's default request", () => {
  const DIALECTS: Record<string, FakeDialectName> = { anthropic: 'anthropic', openai: 'openai-responses', google: 'gemini' };
  const file = readExample('coding-agents.config.json') as GatewayConfigFile;
  const env = envFor(file);
  const fakes: Record<string, FakeUpstream> = {};
  let gw: TestGateway;
  let agentKey = '';

  /** A CLI command of the page, through this gateway's admin API as the CLI calls it; its output lines. */
  async function cli(command: string, ...args: string[]): Promise<string> {
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
    expect(await runCommand(adminApiAt({ url: gw.url, token: gw.localAdminToken }), command, args, io)).toBe(0);
    return out.join('\n');
  }

  beforeAll(async () => {
    for (const p of file.providers) fakes[p.id] = await startFakeUpstream(DIALECTS[p.id]!, { apiKey: env[String(p.apiKey).slice(4)] });
    gw = await startTestGateway({
      config: { ...file, providers: file.providers.map((p) => ({ ...p, baseUrl: fakes[p.id]!.url })) },
      env: { variables: { ...process.env, ...env } },
    });
    await cli('accounts:create', 'me');
    agentKey = /shown once: (sk-\S+)/.exec(await cli('keys:create', '--account', 'me', '--group', 'agents'))![1]!;
  });
  afterAll(async () => {
    await gw?.stop();
    await Promise.all(Object.values(fakes).map((f) => f.close()));
  });

  it('every request body and error example is sent by this test', () => {
    const sent = [...AGENT_REQUESTS, ...ZERO_CONFIG_REQUESTS].map((r) => r.file);
    expect(sent.sort()).toEqual(examples.filter((e) => e.startsWith('requests/') || e.startsWith('errors/')).sort());
  });

  it.each(AGENT_REQUESTS)('$file reaches its upstream with its reasoning settings', async (r) => {
    const res = await request(gw.app).post(r.path).set(r.headers(agentKey)).send(readExample(r.file));
    expect({ status: res.status, type: res.type }).toEqual({ status: 200, type: 'text/event-stream' });
    expect(res.text).not.toMatch(/"type":\s*"error"|event: error|response\.failed/);
    expect(r.upstreamSees(fakes[r.provider]!.requests.at(-1)?.body)).toEqual(r.expected);
  });
});
