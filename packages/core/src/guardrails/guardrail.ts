/**
 * Guardrails as configured (top-level `guardrails` of the config file; docs/guardrails.md): named rules attached to
 * groups and keys, run on a call's input, its output or both. The detectors are guardrails/detectors.ts.
 */
import { GatewayError } from '../errors';
import type { PiiEntity } from './detectors';

export const GUARDRAIL_TYPES = ['regex', 'pii', 'max_input', 'moderation', 'webhook'] as const;
export type GuardrailType = (typeof GUARDRAIL_TYPES)[number];
export const GUARDRAIL_MODES = ['block', 'mask', 'log'] as const;
export type GuardrailMode = (typeof GUARDRAIL_MODES)[number];
export type GuardrailPhase = 'input' | 'output';
export type GuardrailOn = GuardrailPhase | 'both';

interface Common {
  id: string;
  /** absent: block */
  mode?: GuardrailMode;
  /** absent: input */
  on?: GuardrailOn;
}

export type GuardrailSpec = Common &
  (
    | { type: 'regex'; patterns: string[] }
    | { type: 'pii'; entities?: PiiEntity[] }
    | { type: 'max_input'; maxChars?: number; maxTokens?: number }
    | { type: 'moderation'; model?: string }
    | { type: 'webhook'; url: string; timeoutMs?: number; failOpen?: boolean }
  );

export const DEFAULT_WEBHOOK_GUARDRAIL_TIMEOUT_MS = 2000;

export const modeOf = (g: GuardrailSpec): GuardrailMode => g.mode ?? 'block';

/** Whether the guardrail runs in this phase (max_input runs on input only, whatever `on` says). */
export function runsOn(g: GuardrailSpec, phase: GuardrailPhase): boolean {
  const on = g.on ?? 'input';
  if (g.type === 'max_input') return phase === 'input';
  return on === 'both' || on === phase;
}

/**
 * One hit as records keep it: the guardrail, its mode and the phase, never the matched text. `action` says what
 * happened (`blocked`, `masked`, `logged`, `modified`; `failed_open` for a webhook that failed with failOpen).
 */
export interface GuardrailHit {
  guardrail: string;
  mode: GuardrailMode;
  phase: GuardrailPhase;
  action: 'blocked' | 'masked' | 'logged' | 'modified' | 'failed_open';
}

/** 400 `guardrail_blocked`: names the guardrail, never what it matched. */
export function guardrailBlocked(id: string, phase: GuardrailPhase, reason?: string): GatewayError {
  const what = phase === 'input' ? 'The request' : 'The answer';
  const why = reason ? ` (${reason})` : '';
  return new GatewayError('content_policy', `${what} was blocked by the guardrail "${id}"${why}.`, {
    code: 'guardrail_blocked',
    subject: id,
  });
}

/** 503 `guardrail_unavailable`: a webhook guardrail that failed closed. */
export function guardrailUnavailable(id: string): GatewayError {
  return new GatewayError('upstream_unavailable', `The guardrail "${id}" could not be reached, so the request was not sent.`, {
    code: 'guardrail_unavailable',
    subject: id,
  });
}

/** Resolves which guardrails a caller runs: its group's, then its key's own (a key cannot drop its group's). */
export interface GuardrailCatalogue {
  /** the definition of an id; undefined for one no longer configured */
  get(id: string): GuardrailSpec | undefined;
  /** the group's guardrail ids */
  groupGuardrails(group: string): readonly string[];
}

/** The configured guardrails, replaced whole on a config reload (callers holding the object see the new set). */
export class GuardrailSet implements GuardrailCatalogue {
  private specs = new Map<string, GuardrailSpec>();
  private groups = new Map<string, readonly string[]>();

  constructor(specs: readonly GuardrailSpec[] = [], groups: ReadonlyArray<{ name: string; guardrails?: readonly string[] }> = []) {
    this.replace(specs, groups);
  }

  replace(specs: readonly GuardrailSpec[], groups: ReadonlyArray<{ name: string; guardrails?: readonly string[] }>): void {
    this.specs = new Map(specs.map((s) => [s.id, s]));
    this.groups = new Map(groups.map((g) => [g.name, g.guardrails ?? []]));
  }

  get(id: string): GuardrailSpec | undefined {
    return this.specs.get(id);
  }

  has(id: string): boolean {
    return this.specs.has(id);
  }

  groupGuardrails(group: string): readonly string[] {
    return this.groups.get(group) ?? [];
  }

  /** The caller's guardrails in order: the group's, then the key's own ones the group does not already run. */
  resolve(scope: { group: string; guardrails?: readonly string[] | null }): GuardrailSpec[] {
    const ids = [...this.groupGuardrails(scope.group)];
    for (const id of scope.guardrails ?? []) if (!ids.includes(id)) ids.push(id);
    return ids.map((id) => this.specs.get(id)).filter((s): s is GuardrailSpec => s !== undefined);
  }
}
