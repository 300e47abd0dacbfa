/**
 * Issue 39: Claude Code, Codex CLI and Gemini CLI each call a tool through the gateway's `/mcp`, headless. Each agent
 * runs against a zero-config gateway on 127.0.0.1 (its model API and its MCP server both the gateway's), asked to call
 * the built-in server's `echo`; the gateway's usage row for that call (`sim__echo`, format `mcp`, provider `sim`,
 * under the agent's own key) is the proof that the call went through `/mcp`.
 *
 * The agents are not dependencies of the repository: `scripts/install-agents.sh` installs them into `.agents/`
 * (AGENTS_DIR for another folder). An agent not installed is a visible skip naming the reason; REQUIRE_AGENTS=1 makes
 * it a failure instead.
 *
 * Loopback only: each agent gets a bare environment (no variable of this process but PATH), telemetry and update
 * checks off, and HTTP(S)_PROXY pointed at a recorder on 127.0.0.1 that refuses everything; NO_PROXY admits the
 * gateway. The recorder must see nothing: a request an agent tried to send elsewhere fails the test.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FakeUpstream, RecordedRequest } from '@gateway/testkit';
import type { TestGateway } from '../support/test-gateway';

const ROOT = path.resolve(__dirname, '../../../..');
const AGENTS_DIR = path.resolve(ROOT, process.env.AGENTS_DIR ?? '.agents');
const RUN_MS = 180_000;

interface Setup {
  env: Record<string, string>;
  args: string[];
}

interface Agent {
  name: string;
  cli: 'claude' | 'codex' | 'gemini';
  /** writes the agent's config into its own HOME and says how to call it: model API and MCP server, both the gateway */
  setup(home: string, url: string, key: string): Setup;
  /** the agent's final answer, read from its JSON output */
  answer(out: string): string;
}

const PROMPT = 'please call the echo tool';

const AGENTS: Agent[] = [
  {
    name: 'Claude Code',
    cli: 'claude',
    setup(home, url, key) {
      const config = path.join(home, 'mcp.json');
      const server = { type: 'http', url: `${url}/mcp`, headers: { Authorization: `Bearer ${key}` } };
      writeFileSync(config, JSON.stringify({ mcpServers: { gw: server } }));
      return {
        env: {
          ANTHROPIC_BASE_URL: url,
          ANTHROPIC_AUTH_TOKEN: key,
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_TELEMETRY: '1',
          DISABLE_AUTOUPDATER: '1',
          DISABLE_ERROR_REPORTING: '1',
        },
        args: ['-p', PROMPT, '--output-format', 'json', '--mcp-config', config, '--strict-mcp-config'].concat([
          '--allowedTools',
          'mcp__gw__sim__echo',
        ]),
      };
    },
    answer: (out) => String(jsonLines(out).find((d) => d.type === 'result')?.result ?? ''),
  },
  {
    name: 'Codex CLI',
    cli: 'codex',
    setup(home, url, key) {
      const codexHome = path.join(home, '.codex');
      mkdirSync(codexHome, { recursive: true });
      // MCP tools need an approval, and `exec` approves nothing: the server's tools are approved in advance
      writeFileSync(
        path.join(codexHome, 'config.toml'),
        [
          'model = "gpt-5-codex"',
          'model_provider = "gateway"',
          'check_for_update_on_startup = false',
          // off loopback otherwise: the curated plugins' sync (github.com, chatgpt.com) and metrics (ab.chatgpt.com)
          '[features]',
          'plugins = false',
          '[analytics]',
          'enabled = false',
          '[otel]',
          'metrics_exporter = "none"',
          '[model_providers.gateway]',
          'name = "gateway"',
          `base_url = "${url}/v1"`,
          'env_key = "GATEWAY_API_KEY"',
          'wire_api = "responses"',
          '[mcp_servers.gw]',
          `url = "${url}/mcp"`,
          'bearer_token_env_var = "GATEWAY_API_KEY"',
          'default_tools_approval_mode = "approve"',
          '',
        ].join('\n'),
      );
      return { env: { CODEX_HOME: codexHome, GATEWAY_API_KEY: key }, args: ['exec', '--json', '--skip-git-repo-check', PROMPT] };
    },
    answer: (out) =>
      jsonLines(out)
        .filter((d) => d.type === 'item.completed' && d.item?.type === 'agent_message')
        .map((d) => String(d.item.text))
        .join('\n'),
  },
  {
    name: 'Gemini CLI',
    cli: 'gemini',
    setup(home, url, key) {
      mkdirSync(path.join(home, '.gemini'), { recursive: true });
      const settings = {
        security: { auth: { selectedType: 'gemini-api-key' } },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        // trust: its tools run without a confirmation, which a headless run cannot give
        mcpServers: { gw: { httpUrl: `${url}/mcp`, headers: { Authorization: `Bearer ${key}` }, trust: true } },
      };
      writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify(settings));
      return {
        env: {
          GOOGLE_GEMINI_BASE_URL: url,
          GEMINI_API_KEY: key,
          GEMINI_CLI_TRUST_WORKSPACE: 'true',
          GEMINI_TELEMETRY_ENABLED: 'false',
        },
        args: ['-p', PROMPT, '--output-format', 'json'],
      };
    },
    answer: (out) => String(jsonDocument(out)?.response ?? ''),
  },
];

/** The one-line JSON documents a CLI printed. */
function jsonLines(out: string): Array<Record<string, any>> {
  return out.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line)];
    } catch {
      return [];
    }
  });
}

/** The pretty-printed JSON document a CLI printed last (Gemini CLI's `--output-format json`). */
function jsonDocument(out: string): Record<string, any> | undefined {
  const start = out.search(/^\{$/m);
  if (start < 0) return undefined;
  try {
    return JSON.parse(out.slice(start, out.lastIndexOf('}') + 1));
  } catch {
    return undefined;
  }
}

/** One headless run, stdin closed; killed with its children when it outlives RUN_MS. */
function run(bin: string, args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(bin, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => {
      out += `\n(killed after ${RUN_MS} ms)`;
      process.kill(-p.pid!, 'SIGKILL');
    }, RUN_MS);
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** A proxy on 127.0.0.1 that forwards nothing: it refuses every request and CONNECT, and records what was asked. */
async function startRefusingProxy(): Promise<{ url: string; asked: string[]; close(): Promise<void> }> {
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    asked.push(`${req.method} ${req.url}`);
    res.writeHead(403).end();
  });
  server.on('connect', (req, socket) => {
    asked.push(`CONNECT ${req.url}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, asked, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const binOf = (agent: Agent) => path.join(AGENTS_DIR, 'node_modules', '.bin', agent.cli);
const keyOf = (agent: Agent) => `sk-agents-mcp-${agent.cli}-key-0001`;
const agent = (cli: Agent['cli']) => AGENTS.find((a) => a.cli === cli)!;

/** What the scripted upstream answers (the fake's own reply shape, in part). */
type ScriptedReply = { text: string } | { toolCalls: Array<{ id: string; name: string; arguments: Record<string, unknown> }> };

interface Case {
  agent: Agent;
  title: string;
  /** variables beside the agent's own */
  env?: Record<string, string>;
  /** the agent's final answer once it has the tool's result */
  answer: RegExp;
  /** an Anthropic upstream (a scripted fake on 127.0.0.1) serving the model instead of the simulator */
  claudeUpstream?: (req: RecordedRequest) => ScriptedReply;
}

/**
 * Claude Code's tool search, as a model does it: load the tool with ToolSearch, call it, answer. Decided from the
 * conversation so far, so a side request (no ToolSearch offered) gets a plain answer.
 */
function toolSearchTurns(req: RecordedRequest): ScriptedReply {
  const conversation = JSON.stringify(req.body?.messages ?? []);
  if (conversation.includes('"tool_use_id":"toolu_echo"')) return { text: 'The echo tool answered.' };
  if (conversation.includes('"tool_use_id":"toolu_search"'))
    return { toolCalls: [{ id: 'toolu_echo', name: 'mcp__gw__sim__echo', arguments: { text: 'hi' } }] };
  if (!(req.body?.tools ?? []).some((t: { name?: string }) => t.name === 'ToolSearch')) return { text: 'A side answer.' };
  return { toolCalls: [{ id: 'toolu_search', name: 'ToolSearch', arguments: { query: 'select:mcp__gw__sim__echo' } }] };
}

const SIMULATED = /The tool \S*sim__echo returned/;
const CASES: Case[] = [
  {
    agent: agent('claude'),
    title: 'Claude Code calls a tool through /mcp, headless',
    // 2.1.247 and later offer MCP tools only through its ToolSearch tool (load, then call); the simulator calls a tool
    // it is offered, so the tools are offered up front here. The next case keeps the tool search.
    env: { ENABLE_TOOL_SEARCH: 'false' },
    answer: SIMULATED,
  },
  {
    agent: agent('claude'),
    title: 'Claude Code loads the tool with its tool search, then calls it through /mcp (an Anthropic upstream)',
    env: { ANTHROPIC_MODEL: 'claude-via-upstream' },
    answer: /The echo tool answered/,
    claudeUpstream: toolSearchTurns,
  },
  { agent: agent('codex'), title: 'Codex CLI calls a tool through /mcp, headless', answer: SIMULATED },
  { agent: agent('gemini'), title: 'Gemini CLI calls a tool through /mcp, headless', answer: SIMULATED },
];

function describeWithAgent(c: Case, body: () => void): void {
  if (existsSync(binOf(c.agent))) return describe(c.title, body);
  if (process.env.REQUIRE_AGENTS === '1') throw new Error(`${binOf(c.agent)} is missing, but REQUIRE_AGENTS=1 says it must run.`);
  const reason = `${c.agent.cli} not installed in ${AGENTS_DIR}: run scripts/install-agents.sh`;
  console.warn(`${c.title}: skipped (${reason})`);
  describe.skip(`${c.title} (skipped: ${reason})`, body);
}

for (const c of CASES) {
  describeWithAgent(c, () => {
    let gw: TestGateway;
    let proxy: Awaited<ReturnType<typeof startRefusingProxy>>;
    let upstream: FakeUpstream | undefined;
    let scratch: string;

    beforeAll(async () => {
      // loaded here, not at the top: a run without the agents skips without building a gateway
      const { startTestGateway } = await import('../support/test-gateway');
      const { DEFAULT_CONFIG } = await import('../../src/default-config');
      const { startFakeUpstream } = await import('@gateway/testkit');
      const config = { ...DEFAULT_CONFIG, keys: [{ key: keyOf(c.agent), account: c.agent.cli, group: 'default' }] };
      if (c.claudeUpstream) {
        upstream = await startFakeUpstream('anthropic');
        upstream.setDefault({ reply: c.claudeUpstream });
        config.providers = [...config.providers, { id: 'claude', type: 'anthropic', baseUrl: upstream.url, apiKey: upstream.apiKey }];
        config.models = [...config.models, { id: 'claude-via-upstream', kind: 'text', provider: 'claude' }];
      }
      [gw, proxy] = await Promise.all([startTestGateway({ config }), startRefusingProxy()]);
      scratch = mkdtempSync(path.join(os.tmpdir(), `gw-agent-${c.agent.cli}-`));
    });

    afterAll(async () => {
      await Promise.all([gw?.stop(), proxy?.close(), upstream?.close()]);
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    });

    it('the agent calls sim__echo, the gateway records the call, and nothing left loopback', async () => {
      const home = path.join(scratch, 'home');
      const cwd = path.join(scratch, 'work');
      mkdirSync(home, { recursive: true });
      mkdirSync(cwd, { recursive: true });
      const { env, args } = c.agent.setup(home, gw.url, keyOf(c.agent));
      const offLoopback = { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, ALL_PROXY: proxy.url, NO_PROXY: '127.0.0.1,localhost' };
      const lower = Object.fromEntries(Object.entries(offLoopback).map(([k, v]) => [k.toLowerCase(), v]));
      const base = { PATH: process.env.PATH ?? '', HOME: home, TERM: 'dumb', NO_COLOR: '1' };
      const r = await run(binOf(c.agent), args, { ...base, ...offLoopback, ...lower, ...env, ...c.env }, cwd);
      if (r.code !== 0 || proxy.asked.length) console.log(`${c.agent.name} said:\n${r.out.slice(-4000)}`);

      expect({ code: r.code, answer: c.agent.answer(r.out) }).toEqual({ code: 0, answer: expect.stringMatching(c.answer) });
      await gw.usage.flush();
      const usage = await fetch(`${gw.url}/v1/usage`, { headers: { Authorization: `Bearer ${keyOf(c.agent)}` } });
      const rows = ((await usage.json()) as { data: Array<Record<string, unknown>> }).data;
      expect(rows).toContainEqual(expect.objectContaining({ model: 'sim__echo', format: 'mcp', provider: 'sim', status: 'ok' }));
      expect(proxy.asked).toEqual([]);
      // the tool search went through the gateway: the turn after it carried the tool_reference to the upstream
      if (upstream) expect(upstream.requests.some((q) => q.rawBody.includes('"type":"tool_reference"'))).toBe(true);
    });
  });
}
