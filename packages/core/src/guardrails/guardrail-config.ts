import { checkWebhookUrl, type WebhookUrlRule } from '../webhooks/webhook-url';
import { regexDetector } from './detectors';
import type { GuardrailSpec } from './guardrail';

/** A config problem: the field (config-file path) and what is wrong with it. */
export interface GuardrailConfigProblem {
  field: string;
  problem: string;
}

/**
 * The checks the config file's schema cannot make (docs/guardrails.md): unique ids, a pattern that RE2 refuses, a
 * max_input without a limit or in mask mode, a webhook URL outside the webhook rules, and ids named by groups and
 * keys that no guardrail has. The first problem, or undefined.
 */
export function guardrailConfigProblem(
  specs: readonly GuardrailSpec[],
  refs: ReadonlyArray<{ at: string; guardrails?: readonly string[] }>,
  rule: WebhookUrlRule,
): GuardrailConfigProblem | undefined {
  const ids = new Set<string>();
  for (const [i, g] of specs.entries()) {
    const at = `guardrails.${i}`;
    if (ids.has(g.id)) return { field: `${at}.id`, problem: `duplicate guardrail id "${g.id}"` };
    ids.add(g.id);
    const problem = specProblem(g, rule);
    if (problem) return { field: `${at}.${problem.field}`, problem: problem.problem };
  }
  for (const r of refs)
    for (const [j, id] of (r.guardrails ?? []).entries())
      if (!ids.has(id)) return { field: `${r.at}.guardrails.${j}`, problem: `unknown guardrail "${id}"` };
  return undefined;
}

function specProblem(g: GuardrailSpec, rule: WebhookUrlRule): GuardrailConfigProblem | undefined {
  switch (g.type) {
    case 'regex':
      try {
        regexDetector(g.patterns);
      } catch (e) {
        return { field: 'patterns', problem: (e as Error).message };
      }
      return undefined;
    case 'max_input':
      if (g.mode === 'mask') return { field: 'mode', problem: 'a max_input guardrail cannot mask (block or log)' };
      if (g.maxChars === undefined && g.maxTokens === undefined) return { field: 'maxChars', problem: 'give maxChars, maxTokens or both' };
      return undefined;
    case 'webhook':
      try {
        checkWebhookUrl(g.url, rule);
      } catch (e) {
        return { field: 'url', problem: `${(e as Error).message} (WEBHOOK_ALLOWED_HOSTS allows a host)` };
      }
      return undefined;
    default:
      return undefined;
  }
}
