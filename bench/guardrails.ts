/**
 * `npm run bench:guardrails`: the CPU the built-in guardrails add to one request (issue 38, budget: under 20 µs on a
 * 2 kB prompt). The rules are those a config would most often hold together: `pii` with every entity, a `regex` of
 * three patterns and `max_input` (characters, and tokens by the core's estimate), run over every text of a 2 kB
 * chat request (system prompt and three messages), as an input guardrail sees it. Pure CPU in this process, no server:
 * user + system time over many rounds, the median of several trials. Two prompts: a clean one (the usual case: nothing
 * found) and one holding an e-mail address, a card number and a deny word (found and masked).
 * `-- --write` also writes the figures into bench/results/guardrails.md.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { combineDetectors, maskFindings, piiDetector, regexDetector } from '../packages/core/src/guardrails/detectors';
import { estimateInputTokens } from '../packages/core/src/token-estimate';
import type { TextRequest } from '../packages/core/src/text';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20_000);
const TRIALS = Number(process.env.BENCH_TRIALS ?? 7);
const PATTERNS = ['(?i)project\\s+(?:titan|atlas)', '\\bconfidential\\b', '(?i)internal use only'];

const PARAGRAPH =
  'Please review the quarterly plan below and suggest improvements. Revenue grew 12% to 4.2 million in Q3 2025, ' +
  'driven by 1,850 new customers; churn fell to 3.1%. The team of 24 shipped 7 releases (v2.14 to v2.20) and ' +
  'closed 312 tickets. For 2026 we intend to hire 6 engineers, move the billing service to the new cluster, and ' +
  'cut p99 latency from 850 ms to 400 ms. Budget: $310,000, of which 45% goes to infrastructure. ';

/** A 2 kB chat request: a system prompt and three messages, about 2,048 characters of text in all. */
export function benchRequest(extra = ''): TextRequest {
  const body = PARAGRAPH.repeat(6);
  const text = (from: number, to: number) => JSON.parse(JSON.stringify(body.slice(from, to))) as string;
  return {
    model: 'bench',
    system: text(0, 300),
    messages: [
      { role: 'user', content: [{ type: 'text', text: text(300, 1000) + extra }] },
      { role: 'assistant', content: [{ type: 'text', text: text(1000, 1400) }] },
      { role: 'user', content: [{ type: 'text', text: text(1400, 2048 - extra.length) }] },
    ],
  };
}

const detector = combineDetectors([piiDetector(), regexDetector(PATTERNS)]);
const MAX_CHARS = 100_000;
const MAX_TOKENS = 32_000;

/** What an input guardrail set does to one request: every text scanned, findings masked, the size checked. */
function applyRules(req: TextRequest): number {
  let chars = 0;
  let found = 0;
  const scan = (text: string) => {
    chars += text.length;
    const findings = detector.find(text);
    found += findings.length;
    return findings.length ? maskFindings(text, findings) : text;
  };
  if (req.system) scan(req.system);
  for (const m of req.messages) for (const part of m.content) if (part.type === 'text') scan(part.text);
  if (chars > MAX_CHARS || estimateInputTokens(req) > MAX_TOKENS) return -1;
  return found;
}

function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** Median CPU µs per request over `trials` trials of `rounds` requests each. */
function measure(req: TextRequest, rounds: number, trials: number): number {
  for (let i = 0; i < Math.min(rounds, 2000); i++) applyRules(req);
  const perRequest: number[] = [];
  for (let t = 0; t < trials; t++) {
    const start = cpuMicros();
    for (let i = 0; i < rounds; i++) applyRules(req);
    perRequest.push((cpuMicros() - start) / rounds);
  }
  const sorted = perRequest.sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export interface GuardrailsBench {
  promptChars: number;
  cleanUs: number;
  withHitsUs: number;
  hits: number;
}

export function benchGuardrails(rounds = ROUNDS, trials = TRIALS): GuardrailsBench {
  const clean = benchRequest();
  const withHits = benchRequest(' Reach me at jane.doe@example.com, card 4111 1111 1111 1111, confidential. ');
  const promptChars =
    (clean.system?.length ?? 0) +
    clean.messages.reduce((n, m) => n + m.content.reduce((k, p) => k + (p.type === 'text' ? p.text.length : 0), 0), 0);
  return {
    promptChars,
    cleanUs: measure(clean, rounds, trials),
    withHitsUs: measure(withHits, rounds, trials),
    hits: applyRules(withHits),
  };
}

/** One line for `npm run bench` and the table of bench/results/guardrails.md. */
export function guardrailsLine(r: GuardrailsBench): string {
  return `guardrails (pii all entities + 3-pattern regex + max_input, ${r.promptChars}-character prompt): ${r.cleanUs.toFixed(1)} µs CPU per request clean, ${r.withHitsUs.toFixed(1)} µs with ${r.hits} hits masked (budget 20 µs)`;
}

function report(r: GuardrailsBench): string {
  const verdict = r.cleanUs < 20 && r.withHitsUs < 20 ? 'met' : 'not met';
  return [
    '# Guardrails: CPU per request',
    '',
    `Run of ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version},`,
    `load average ${os.loadavg()[0]!.toFixed(1)} at the end. Median of ${TRIALS} trials of ${ROUNDS.toLocaleString('en')} requests, user + system CPU.`,
    'Rules: `pii` (every entity), `regex` of three RE2 patterns, `max_input` (characters and estimated tokens), over',
    'every text of a chat request of a system prompt and three messages. Rerun: `npm run bench:guardrails -- --write`.',
    '',
    `**Budget (under 20 µs): ${verdict}.**`,
    '',
    '| prompt | µs CPU per request |',
    '|---|---|',
    `| ${r.promptChars} characters, nothing found | ${r.cleanUs.toFixed(1)} |`,
    `| ${r.promptChars} characters, ${r.hits} hits (e-mail, card, deny word) masked | ${r.withHitsUs.toFixed(1)} |`,
    '',
  ].join('\n');
}

if (require.main === module) {
  const r = benchGuardrails();
  console.log(guardrailsLine(r));
  if (process.argv.includes('--write')) {
    const file = path.join(__dirname, 'results/guardrails.md');
    writeFileSync(file, report(r));
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  }
}
