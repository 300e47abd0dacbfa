/**
 * `npm run agents:smoke` (not in CI): installs Claude Code, Codex CLI and Gemini CLI with npm into a scratch folder,
 * starts the zero-config gateway (simulator upstream), and runs each CLI headless with the config from
 * docs/coding-agents.md: a plain prompt, a tool call round trip, a resumed session, and an unconfigured model id that
 * must end within 10 s with the client's own model-not-found message. Prints a markdown table; exits 1 when a check
 * failed. AGENTS_SMOKE_DIR picks the scratch folder (default: <tmp>/gateway-agents-smoke, reused between runs);
 * AGENTS_SMOKE_SKIP_INSTALL=1 reuses what is installed there; AGENTS_SMOKE_ONLY=codex,codex-ws runs only those.
 * `codex-ws` is Codex through its built-in provider (`openai_base_url`), which opens the Responses API over
 * WebSocket: it also checks that the turns went over the WebSocket transport.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const SCRATCH = process.env.AGENTS_SMOKE_DIR ?? path.join(os.tmpdir(), 'gateway-agents-smoke');
const PACKAGES = { claude: '@anthropic-ai/claude-code', codex: '@openai/codex', gemini: '@google/gemini-cli' } as const;
type Cli = keyof typeof PACKAGES;
/** the agents run: each CLI with the config docs/coding-agents.md gives, and Codex once more with its built-in provider */
const AGENTS = ['claude', 'codex', 'codex-ws', 'gemini'] as const;
type Agent = (typeof AGENTS)[number];
const cliOf = (agent: Agent): Cli => (agent === 'codex-ws' ? 'codex' : agent);
const KEY = 'sk-agents-smoke-key-0001';
const STEP_MS = 120_000;
const NOT_FOUND_MS = 10_000;
const UNKNOWN_MODEL = 'no-such-model-smoke';

interface Run {
  code: number | null;
  out: string;
  ms: number;
  timedOut: boolean;
}

/** One CLI call, bounded: killed (with its children) when it outlives `timeoutMs`. stdin is closed. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, timeoutMs = STEP_MS): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-p.pid!, 'SIGKILL');
      } catch {
        p.kill('SIGKILL');
      }
    }, timeoutMs);
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, ms: Date.now() - started, timedOut });
    });
  });
}

/** The JSON objects a CLI printed (one per line, or one pretty-printed document). */
function jsonOf(out: string): Array<Record<string, any>> {
  const docs: Array<Record<string, any>> = [];
  for (const line of out.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      docs.push(JSON.parse(line));
    } catch {
      // not a one-line document
    }
  }
  const start = out.search(/^\{$/m);
  if (start >= 0) {
    try {
      docs.push(JSON.parse(out.slice(start, out.lastIndexOf('}') + 1)));
    } catch {
      // not a document either
    }
  }
  return docs;
}

async function startGateway(): Promise<{ url: string; stop(): void }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gw-agents-smoke-'));
  // zero-config: no config file, the embedded store
  const { GATEWAY_CONFIG: _config, DATABASE_URL: _db, ...env } = process.env;
  const proc = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: ROOT,
    env: { ...env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, GATEWAY_DEMO_KEY: KEY, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stderr.on('data', (d) => (out += d));
  const stop = () => {
    proc.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('exit', () => proc.kill('SIGKILL'));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gateway did not start:\n${out}`)), 60_000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /Gateway listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
  return { url, stop };
}

interface Check {
  agent: Agent;
  check: string;
  pass: boolean;
  detail: string;
}

/** Each agent's config (docs/coding-agents.md) in a HOME of its own, so nothing of the user's is read or written. */
function agentEnv(agent: Agent, url: string): NodeJS.ProcessEnv {
  const home = path.join(SCRATCH, `home-${agent}`);
  mkdirSync(home, { recursive: true });
  const base = { PATH: process.env.PATH, HOME: home, TERM: 'dumb', NO_COLOR: '1' };
  if (agent === 'claude')
    return { ...base, ANTHROPIC_BASE_URL: url, ANTHROPIC_AUTH_TOKEN: KEY, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' };
  if (agent === 'codex') {
    const codexHome = path.join(home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(
      path.join(codexHome, 'config.toml'),
      `model = "gpt-5-codex"\nmodel_provider = "gateway"\n\n[model_providers.gateway]\nname = "gateway"\nbase_url = "${url}/v1"\nenv_key = "GATEWAY_API_KEY"\nwire_api = "responses"\n`,
    );
    return { ...base, CODEX_HOME: codexHome, GATEWAY_API_KEY: KEY };
  }
  if (agent === 'codex-ws') {
    // the built-in provider, pointed at the gateway: WebSocket first; its log names the transport of each turn
    const codexHome = path.join(home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(path.join(codexHome, 'config.toml'), `model = "gpt-5-codex"\nopenai_base_url = "${url}/v1"\n`);
    return { ...base, CODEX_HOME: codexHome, CODEX_API_KEY: KEY, RUST_LOG: 'codex_api=info,codex_core=info' };
  }
  mkdirSync(path.join(home, '.gemini'), { recursive: true });
  writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
  return { ...base, GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: KEY, GEMINI_CLI_TRUST_WORKSPACE: 'true' };
}

/** The four checks, per CLI: how to call it and how to read its answer. */
const CLI: Record<Agent, { prompt(text: string, extra?: string[]): string[]; toolPrompt: string }> = {
  claude: { prompt: (t, extra = []) => ['-p', t, '--output-format', 'json', ...extra], toolPrompt: 'please call the Read tool' },
  codex: { prompt: (t, extra = []) => ['exec', '--json', '--skip-git-repo-check', ...extra, t], toolPrompt: 'please call view_image' },
  'codex-ws': { prompt: (t, extra = []) => ['exec', '--json', '--skip-git-repo-check', ...extra, t], toolPrompt: 'please call view_image' },
  gemini: { prompt: (t, extra = []) => [...extra, '-p', t, '--output-format', 'json'], toolPrompt: 'please call list_directory' },
};

/** The answer text, session id and input tokens of one run, read from each CLI's own JSON output. */
function answerOf(agent: Agent, r: Run): { text: string; session?: string; inputTokens: number } {
  const docs = jsonOf(r.out);
  if (agent === 'claude') {
    const d = docs.find((x) => x.type === 'result') ?? {};
    return { text: String(d.result ?? ''), session: d.session_id, inputTokens: Number(d.usage?.input_tokens ?? 0) };
  }
  if (cliOf(agent) === 'codex') {
    const messages = docs.filter((x) => x.type === 'item.completed' && x.item?.type === 'agent_message').map((x) => x.item.text);
    const turn = docs.find((x) => x.type === 'turn.completed');
    return {
      text: messages.join('\n'),
      session: docs.find((x) => x.type === 'thread.started')?.thread_id,
      inputTokens: Number(turn?.usage?.input_tokens ?? 0),
    };
  }
  const d = docs.find((x) => 'session_id' in x) ?? {};
  const models = Object.values(d.stats?.models ?? {}) as Array<{ tokens?: { prompt?: number } }>;
  return {
    text: String(d.response ?? d.error?.message ?? ''),
    session: d.session_id,
    inputTokens: models.reduce((n, m) => n + (m.tokens?.prompt ?? 0), 0),
  };
}

async function smoke(agent: Agent, url: string): Promise<Check[]> {
  const bin = path.join(SCRATCH, 'node_modules', '.bin', cliOf(agent));
  const env = agentEnv(agent, url);
  const cwd = path.join(SCRATCH, 'work');
  mkdirSync(cwd, { recursive: true });
  const cli = CLI[agent];
  const out: Check[] = [];
  const record = (check: string, pass: boolean, detail: string) =>
    out.push({ agent, check, pass, detail: detail.replace(/\s+/g, ' ').slice(0, 160) });
  const failure = (r: Run) =>
    r.timedOut ? `timed out after ${r.ms} ms` : `exit ${r.code}: ${r.out.trim().split('\n').slice(-3).join(' ')}`;

  const plain = await run(bin, cli.prompt('hello there'), env, cwd);
  const a = answerOf(agent, plain);
  record('plain prompt', plain.code === 0 && a.text.includes('Simulated answer'), plain.code === 0 ? a.text : failure(plain));
  if (agent === 'codex-ws') {
    // codex-api logs this line once the upgrade succeeded; an HTTP fallback never prints it
    const overSocket = /successfully connected to (Responses )?WebSocket/i.test(plain.out);
    record('turns over WebSocket', plain.code === 0 && overSocket, overSocket ? 'connected to the gateway over WebSocket' : failure(plain));
  }

  const tool = await run(bin, cli.prompt(cli.toolPrompt), env, cwd);
  const t = answerOf(agent, tool);
  record('tool call round trip', tool.code === 0 && /The tool \S+ returned/.test(t.text), tool.code === 0 ? t.text : failure(tool));

  const first = await run(bin, cli.prompt('remember the word tangerine'), env, cwd);
  const f = answerOf(agent, first);
  const resumeArgs = agent === 'claude' ? ['--resume', f.session ?? ''] : agent === 'gemini' ? ['--resume', 'latest'] : [];
  const again =
    cliOf(agent) === 'codex'
      ? await run(bin, ['exec', '--json', '--skip-git-repo-check', 'resume', f.session ?? '', 'what word was it'], env, cwd)
      : await run(bin, cli.prompt('what word was it', resumeArgs), env, cwd);
  const s = answerOf(agent, again);
  // The resumed call carries the first turn: same session, and more input than the first call.
  const resumed = again.code === 0 && !!f.session && s.session === f.session && s.inputTokens > f.inputTokens;
  record(
    'resumed session',
    resumed,
    again.code === 0 ? `session ${s.session}; input tokens ${f.inputTokens} then ${s.inputTokens}` : failure(again),
  );

  const modelArgs = agent === 'claude' ? ['--model', UNKNOWN_MODEL] : ['-m', UNKNOWN_MODEL];
  const unknown = await run(bin, cli.prompt('hello', modelArgs), env, cwd, NOT_FOUND_MS);
  const u = answerOf(agent, unknown);
  const said = u.text || unknown.out;
  const named = said.includes(UNKNOWN_MODEL) && /not (be )?found|does not exist|not exist|issue with the selected model/i.test(said);
  record(
    `unknown model ends within ${NOT_FOUND_MS / 1000} s`,
    !unknown.timedOut && unknown.code !== 0 && named,
    unknown.timedOut ? failure(unknown) : `${unknown.ms} ms, exit ${unknown.code}: ${u.text || said.trim().split('\n').slice(-1)[0]}`,
  );
  return out;
}

async function main(): Promise<void> {
  mkdirSync(SCRATCH, { recursive: true });
  const only = process.env.AGENTS_SMOKE_ONLY?.split(',').map((a) => a.trim());
  const agents = AGENTS.filter((a) => !only || only.includes(a));
  const packages = [...new Set(agents.map((a) => PACKAGES[cliOf(a)]))];
  if (process.env.AGENTS_SMOKE_SKIP_INSTALL !== '1' || !existsSync(path.join(SCRATCH, 'node_modules'))) {
    if (!existsSync(path.join(SCRATCH, 'package.json'))) writeFileSync(path.join(SCRATCH, 'package.json'), '{"private":true}\n');
    console.log(`installing ${packages.join(', ')} into ${SCRATCH} …`);
    const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', ...packages.map((p) => `${p}@latest`)], {
      cwd: SCRATCH,
      stdio: 'inherit',
      timeout: 600_000,
    });
    if (npm.status !== 0) throw new Error(`npm install failed (${npm.status ?? npm.signal})`);
  }
  const versions = [...new Set(agents.map(cliOf))].map((cli) => {
    const v = spawnSync(path.join(SCRATCH, 'node_modules', '.bin', cli), ['--version'], { encoding: 'utf8', timeout: 30_000 });
    return `${PACKAGES[cli]} ${(v.stdout || v.stderr || `not runnable: ${v.error?.message}`).trim()}`;
  });
  const gw = await startGateway();
  const checks: Check[] = [];
  try {
    for (const agent of agents) checks.push(...(await smoke(agent, gw.url)));
  } finally {
    gw.stop();
  }
  console.log(`\nRun ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${os.platform()}-${os.arch()}`);
  for (const v of versions) console.log(`- ${v}`);
  console.log('\n| agent | check | result | detail |\n|---|---|---|---|');
  for (const c of checks) console.log(`| ${c.agent} | ${c.check} | ${c.pass ? 'pass' : 'FAIL'} | ${c.detail.replace(/\|/g, '\\|')} |`);
  process.exitCode = checks.every((c) => c.pass) ? 0 : 1;
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
