import {
  malformedUpstream,
  s,
  type CallContext,
  type ModerationInput,
  type ModerationModelPort,
  type ModerationRequest,
  type ModerationResult,
  type ModerationVerdict,
  type UpstreamClient,
} from '@gateway/provider-kit';

const verdictSchema = s.object({
  flagged: s.boolean(),
  categories: s.unknown(),
  category_scores: s.unknown(),
  category_applied_input_types: s.unknown(),
});

export const openAiModerationResponseSchema = s.object({ id: s.string(), model: s.string(), results: s.array(verdictSchema) });

type OpenAiModerationInput = string | string[] | Array<{ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }>;

/** The request's items as OpenAI `input`s: texts together in one call (one result each), a multi-modal item alone. */
function openAiInputs(items: ModerationRequest['items']): OpenAiModerationInput[] {
  const single = (item: readonly ModerationInput[]) => item.length === 1 && item[0]!.type === 'text';
  if (items.every(single)) return [items.map((i) => (i[0] as { text: string }).text)];
  return items.map((item) => item.map((p) => (p.type === 'text' ? p : { type: 'image_url' as const, image_url: { url: p.url } })));
}

function record<T>(v: unknown, ok: (x: unknown) => boolean): Record<string, T> {
  const out: Record<string, T> = {};
  if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) if (ok(x)) out[k] = x as T;
  return out;
}

/** OpenAI's /moderations behind the moderation port. It counts no tokens: the gateway estimates them. */
export class OpenAiModerationModel implements ModerationModelPort {
  constructor(private readonly http: UpstreamClient) {}

  async moderate(request: ModerationRequest, ctx: CallContext): Promise<ModerationResult> {
    const results: ModerationVerdict[] = [];
    let upstreamRequestId: string | undefined;
    for (const input of openAiInputs(request.items)) {
      const res = await this.http.request({
        method: 'POST',
        path: '/moderations',
        json: { model: request.model, input },
        signal: ctx.signal,
      });
      upstreamRequestId ??= res.requestId;
      const answer = await res.json(openAiModerationResponseSchema, 'a moderations answer');
      const expected = Array.isArray(input) && typeof input[0] === 'string' ? input.length : 1;
      if (answer.results?.length !== expected)
        throw malformedUpstream(`a moderations answer with ${answer.results?.length ?? 0} results for ${expected} inputs`);
      for (const r of answer.results)
        results.push({
          flagged: r.flagged ?? false,
          categories: record(r.categories, (x) => typeof x === 'boolean'),
          scores: record(r.category_scores, (x) => typeof x === 'number'),
          appliedInputTypes: record(r.category_applied_input_types, Array.isArray),
        });
    }
    return { results, warnings: [], ...(upstreamRequestId ? { upstreamRequestId } : {}) };
  }
}
