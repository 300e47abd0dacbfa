import type { Principal } from '../auth';
import { isGatewayError } from '../errors';
import { maskFindings } from '../guardrails/detectors';
import {
  DEFAULT_WEBHOOK_GUARDRAIL_TIMEOUT_MS,
  guardrailBlocked,
  guardrailUnavailable,
  modeOf,
  runsOn,
  type GuardrailHit,
  type GuardrailPhase,
  type GuardrailSet,
  type GuardrailSpec,
} from '../guardrails/guardrail';
import type { WebhookSender } from '../ports/webhook-sender.port';
import { estimateTextTokens } from '../token-estimate';
import { signWebhook } from '../webhooks/webhook-signing';
import { newId } from '../auth';
import { detectorOf, OutputStreamScanner } from './guardrails-stream';
import type { TextModerator } from './text-moderation';
import type { RoutedCallMeta } from './usage-record';

/** Where hits go besides the usage row: a metric per hit, a warn line per block (the composition root wires both). */
export interface GuardrailObserver {
  hit(hit: GuardrailHit, call: GuardrailCall): void;
}

export interface GuardrailDeps {
  guardrails: GuardrailSet;
  /** the gateway's moderation model (moderation guardrails); without it they fail closed */
  moderator?: TextModerator;
  /** the catalogue's first moderation model: a moderation guardrail without `model` runs it */
  defaultModerationModel?: () => string | undefined;
  /** webhook guardrails: the POST (under the webhook URL rules) and the account's callback secret that signs it */
  webhooks?: { sender: WebhookSender; callbackSecret(accountId: string): Promise<string> };
  observer?: GuardrailObserver;
  /** unix milliseconds (webhook timestamps) */
  now?: () => number;
}

/** One call the guardrails run on: who, which model (the client-facing id), and where its hits are recorded. */
export interface GuardrailCall {
  principal: Principal;
  model: string;
  requestId: string;
  format: string;
  signal: AbortSignal;
  /** every hit of the call so far, in order (the usage row's `guardrails`) */
  hits: GuardrailHit[];
}

/** A webhook guardrail's answer body: at most this much is read. */
const WEBHOOK_ANSWER_BYTES = 1 << 20;

/**
 * Runs a caller's guardrails over texts (guardrails-text.ts says which texts a text call has). `block` throws
 * guardrail_blocked naming the guardrail; `mask` returns the texts with placeholders; `log` only records. Built-ins
 * need no network; `moderation` calls the gateway's moderation model, `webhook` the team's service (fails closed
 * with guardrail_unavailable unless `failOpen`).
 */
export class Guardrails {
  constructor(private readonly deps: GuardrailDeps) {}

  /** The caller's guardrails: its group's, then its key's own. */
  of(principal: Principal): GuardrailSpec[] {
    return this.deps.guardrails.resolve({ group: principal.group, guardrails: principal.guardrails });
  }

  /**
   * Input texts of a call that is not a text call (embeddings inputs, image prompts) through the caller's input
   * guardrails: the texts as the upstream may see them, and the meta whose usage row carries the hits.
   */
  async input<M extends RoutedCallMeta>(principal: Principal, model: string, texts: readonly string[], meta: M) {
    const specs = this.of(principal);
    if (!Guardrails.any(specs, 'input')) return { texts: [...texts], meta };
    const call: GuardrailCall = { ...meta, principal, model, hits: meta.guardrailHits ?? [] };
    const checked = await this.check(specs, 'input', texts, call);
    return { texts: checked, meta: { ...meta, guardrailHits: call.hits } };
  }

  /** Whether any of them runs in this phase (callers skip collecting texts when none does). */
  static any(specs: readonly GuardrailSpec[], phase: GuardrailPhase): boolean {
    return specs.some((s) => runsOn(s, phase));
  }

  /** The texts after every guardrail of the phase ran on them, in order (each sees the previous one's masking). */
  async check(specs: readonly GuardrailSpec[], phase: GuardrailPhase, texts: readonly string[], call: GuardrailCall): Promise<string[]> {
    let out = [...texts];
    for (const spec of specs) if (runsOn(spec, phase)) out = await this.one(spec, phase, out, call);
    return out;
  }

  /** The output scanner of a stream: regex and pii look at a bounded window, moderation and webhook at the whole text. */
  streamScanner(specs: readonly GuardrailSpec[], call: GuardrailCall): OutputStreamScanner {
    return new OutputStreamScanner(this, specs, call);
  }

  record(spec: GuardrailSpec, phase: GuardrailPhase, action: GuardrailHit['action'], call: GuardrailCall): void {
    const hit: GuardrailHit = { guardrail: spec.id, mode: modeOf(spec), phase, action };
    call.hits.push(hit);
    this.deps.observer?.hit(hit, call);
  }

  private async one(spec: GuardrailSpec, phase: GuardrailPhase, texts: string[], call: GuardrailCall): Promise<string[]> {
    switch (spec.type) {
      case 'regex':
      case 'pii':
        return this.detect(spec, phase, texts, call);
      case 'max_input':
        return this.maxInput(spec, texts, call);
      case 'moderation':
        return this.moderate(spec, phase, texts, call);
      case 'webhook':
        return this.webhook(spec, phase, texts, call);
    }
  }

  private detect(spec: GuardrailSpec, phase: GuardrailPhase, texts: string[], call: GuardrailCall): string[] {
    const detector = detectorOf(spec);
    let hit = false;
    const out = texts.map((t) => {
      const findings = detector.find(t);
      if (findings.length === 0) return t;
      hit = true;
      return modeOf(spec) === 'mask' ? maskFindings(t, findings) : t;
    });
    if (hit) this.act(spec, phase, call);
    return out;
  }

  private maxInput(spec: Extract<GuardrailSpec, { type: 'max_input' }>, texts: string[], call: GuardrailCall): string[] {
    const chars = texts.reduce((n, t) => n + t.length, 0);
    const tokens = texts.reduce((n, t) => n + estimateTextTokens(t), 0);
    const over =
      spec.maxChars !== undefined && chars > spec.maxChars
        ? `over ${spec.maxChars} characters`
        : spec.maxTokens !== undefined && tokens > spec.maxTokens
          ? `over ${spec.maxTokens} tokens`
          : undefined;
    if (over) this.act(spec, 'input', call, over);
    return texts;
  }

  private async moderate(
    spec: Extract<GuardrailSpec, { type: 'moderation' }>,
    phase: GuardrailPhase,
    texts: string[],
    call: GuardrailCall,
  ) {
    const items = texts.map((t, i) => ({ t, i })).filter(({ t }) => t.length > 0);
    if (items.length === 0) return texts;
    const model = spec.model ?? this.deps.defaultModerationModel?.();
    let flagged: boolean[];
    try {
      if (!this.deps.moderator || !model) throw new Error('no moderation model');
      const verdicts = await this.deps.moderator.moderate(
        call.principal,
        model,
        items.map(({ t }) => [{ type: 'text', text: t }]),
        call,
      );
      flagged = verdicts.map((v) => v.flagged);
    } catch (e) {
      if (call.signal.aborted) throw e;
      throw guardrailUnavailable(spec.id);
    }
    if (!flagged.some(Boolean)) return texts;
    this.act(spec, phase, call);
    if (modeOf(spec) !== 'mask') return texts;
    const out = [...texts];
    items.forEach(({ i }, k) => {
      if (flagged[k]) out[i] = '[REDACTED]';
    });
    return out;
  }

  private async webhook(spec: Extract<GuardrailSpec, { type: 'webhook' }>, phase: GuardrailPhase, texts: string[], call: GuardrailCall) {
    const answer = await this.askWebhook(spec, phase, texts, call);
    if (answer === undefined) {
      if (!spec.failOpen) throw guardrailUnavailable(spec.id);
      this.record(spec, phase, 'failed_open', call);
      return texts;
    }
    if (answer.action === 'allow') return texts;
    if (modeOf(spec) === 'log') {
      this.record(spec, phase, 'logged', call);
      return texts;
    }
    if (answer.action === 'block') {
      this.record(spec, phase, 'blocked', call);
      throw guardrailBlocked(spec.id, phase);
    }
    this.record(spec, phase, 'modified', call);
    return answer.texts!;
  }

  /** The receiver's answer, or undefined when there is none that can be read (timeout, failure, not 2xx, bad body). */
  private async askWebhook(
    spec: Extract<GuardrailSpec, { type: 'webhook' }>,
    phase: GuardrailPhase,
    texts: string[],
    call: GuardrailCall,
  ): Promise<WebhookGuardrailAnswer | undefined> {
    const hooks = this.deps.webhooks;
    if (!hooks) return undefined;
    try {
      const body = JSON.stringify({ phase, request_id: call.requestId, model: call.model, texts });
      const secret = await hooks.callbackSecret(call.principal.accountId);
      const seconds = Math.floor((this.deps.now?.() ?? Date.now()) / 1000);
      const headers = { 'content-type': 'application/json', ...signWebhook(secret, newId('msg_'), seconds, body) };
      const timeoutMs = spec.timeoutMs ?? DEFAULT_WEBHOOK_GUARDRAIL_TIMEOUT_MS;
      const got = await hooks.sender.post(spec.url, { headers, body, timeoutMs, answerBytes: WEBHOOK_ANSWER_BYTES });
      if ('error' in got || got.status < 200 || got.status > 299) return undefined;
      return parseAnswer(got.excerpt, texts.length);
    } catch (e) {
      if (call.signal.aborted || isGatewayError(e)) throw e;
      return undefined;
    }
  }

  /** A match: block throws, mask and log record. */
  private act(spec: GuardrailSpec, phase: GuardrailPhase, call: GuardrailCall, reason?: string): void {
    const mode = modeOf(spec);
    this.record(spec, phase, mode === 'block' ? 'blocked' : mode === 'mask' ? 'masked' : 'logged', call);
    if (mode === 'block') throw guardrailBlocked(spec.id, phase, reason);
  }
}

interface WebhookGuardrailAnswer {
  action: 'allow' | 'block' | 'modify';
  texts?: string[];
}

/** `{action, texts?, reason?}`; `modify` must give one string per text sent (replaced by position). */
function parseAnswer(raw: string, count: number): WebhookGuardrailAnswer | undefined {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const { action, texts } = body as { action?: unknown; texts?: unknown };
  if (action === 'allow' || action === 'block') return { action };
  if (action !== 'modify') return undefined;
  if (!Array.isArray(texts) || texts.length !== count || !texts.every((t) => typeof t === 'string')) return undefined;
  return { action, texts: texts as string[] };
}
