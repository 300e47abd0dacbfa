/**
 * A fake OpenAI moderations upstream, after the API reference (openai-openapi 2.3.0 `CreateModerationRequest`):
 * `POST /v1/moderations` with `input` a string, strings, or text and image_url parts; an answer per input with the
 * 13 categories. It flags `violence` when a text says "attack"; `text-moderation-*` models are refused, as OpenAI
 * now does. Errors in OpenAI's shape.
 */
import { MODERATION_CATEGORIES } from '@gateway/provider-kit';
import { bearerJsonRoutes, sendJson, startFakeJsonApi, type FakeJsonApi } from '@gateway/testkit';
import { openAiErrorBody } from './fake-openai-error';

/** url: the base URL as the openai SDK takes it (ends in /v1) */
export type FakeOpenAiModerations = FakeJsonApi;

type Part = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

function result(parts: Part[]) {
  const text = parts.map((p) => (p.type === 'text' ? p.text : '')).join(' ');
  const types = (c: string) => [
    ...(parts.some((p) => p.type === 'text') ? ['text'] : []),
    ...(parts.some((p) => p.type === 'image_url') && c.startsWith('violence') ? ['image'] : []),
  ];
  const violent = /\battack\b/i.test(text);
  return {
    flagged: violent,
    categories: Object.fromEntries(MODERATION_CATEGORIES.map((c) => [c, violent && c === 'violence'])),
    category_scores: Object.fromEntries(MODERATION_CATEGORIES.map((c) => [c, violent && c === 'violence' ? 0.87 : 0.00002])),
    category_applied_input_types: Object.fromEntries(MODERATION_CATEGORIES.map((c) => [c, types(c)])),
  };
}

const modelOf = (b: Record<string, unknown> | undefined) => (typeof b?.model === 'string' ? b.model : 'omni-moderation-latest');

function inputsOf(input: unknown): Part[][] | undefined {
  if (typeof input === 'string') return [[{ type: 'text', text: input }]];
  if (Array.isArray(input) && input.every((i) => typeof i === 'string')) return input.map((text: string) => [{ type: 'text', text }]);
  if (Array.isArray(input) && input.length > 0) return [input as Part[]];
  return undefined;
}

function badModeration(b: Record<string, unknown> | undefined): string | undefined {
  if (modelOf(b).startsWith('text-moderation')) return 'text-moderation models are deprecated; use omni-moderation-latest.';
  if (!inputsOf(b?.input)) return "'input' is a required property";
  return undefined;
}

function moderate(b: Record<string, unknown>, res: Parameters<typeof sendJson>[0]) {
  const inputs = inputsOf(b.input)!;
  sendJson(
    res,
    200,
    { id: `modr-fake-${inputs.length}`, model: `${modelOf(b)}-2024-09-26`, results: inputs.map(result) },
    { 'x-request-id': 'req_fake_mod' },
  );
}

export function startFakeOpenAiModerations(opts: { apiKey?: string } = {}): Promise<FakeOpenAiModerations> {
  const apiKey = opts.apiKey ?? 'sk-fake-moderations-0001';
  const guarded = bearerJsonRoutes(apiKey, openAiErrorBody, 'Incorrect API key provided.');
  const route = { kind: 'create', method: 'POST', pattern: /^\/v1\/moderations$/, handle: guarded(badModeration, moderate) } as const;
  return startFakeJsonApi(apiKey, [route], openAiErrorBody, '/v1');
}
