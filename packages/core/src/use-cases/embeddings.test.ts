import { ModelCatalogue, type ModelSpec } from '../catalogue';
import type { EmbeddingRequest } from '../embedding';
import type { EmbeddingModelPort } from '../ports/embedding-model.port';
import type { UsageRow } from '../ports/usage-log.port';
import { checkEmbeddingCommand, EMBEDDING_LIMITS, Embeddings } from './embeddings';

const names = { input: 'input', dimensions: 'dimensions' };
const refusal = (f: () => void) => {
  try {
    f();
  } catch (e) {
    return e as { code: string; param: string; status: number };
  }
  throw new Error('not refused');
};

describe('the embeddings limits', () => {
  it('refuses no input, too many, an empty one, too long ones and bad dimensions, naming the field as the caller spells it', () => {
    expect(refusal(() => checkEmbeddingCommand({ inputs: [] }, names))).toMatchObject({
      code: 'invalid_input',
      param: 'input',
      status: 400,
    });
    const many = Array.from({ length: EMBEDDING_LIMITS.maxInputs + 1 }, () => 'x');
    expect(refusal(() => checkEmbeddingCommand({ inputs: many }, names))).toMatchObject({ code: 'too_many_inputs' });
    expect(refusal(() => checkEmbeddingCommand({ inputs: ['a', ''] }, { input: 'requests', dimensions: 'x' }))).toMatchObject({
      code: 'invalid_input',
      param: 'requests',
    });
    expect(refusal(() => checkEmbeddingCommand({ inputs: [[]] }, names)).code).toBe('invalid_input');
    expect(refusal(() => checkEmbeddingCommand({ inputs: [new Array(8193).fill(1)] }, names)).code).toBe('input_too_long');
    const total = Array.from({ length: 40 }, () => new Array(8000).fill(1));
    expect(refusal(() => checkEmbeddingCommand({ inputs: total }, names)).code).toBe('input_too_long');
    expect(
      refusal(() => checkEmbeddingCommand({ inputs: ['x'], dimensions: 0 }, { input: 'content', dimensions: 'outputDimensionality' })),
    ).toMatchObject({
      code: 'invalid_dimensions',
      param: 'outputDimensionality',
    });
    expect(() => checkEmbeddingCommand({ inputs: many.slice(1), dimensions: 4096 }, names)).not.toThrow();
  });
});

describe('Embeddings', () => {
  const model: ModelSpec = { id: 'e', kind: 'embedding', deployments: [{ provider: 'p', upstreamModel: 'up', priority: 0, weight: 1 }] };
  const principal = { accountId: 'a', keyId: 'k', group: 'g' };
  const meta = { format: 'test', requestId: 'r', signal: new AbortController().signal };
  function setup(port: EmbeddingModelPort) {
    const rows: UsageRow[] = [];
    const uc = new Embeddings({
      catalogue: new ModelCatalogue([model], [{ name: 'g', models: ['*'] }]),
      usage: { record: (r) => rows.push(r), flush: async () => {} },
      providers: { embedding: () => port },
    });
    return { uc, rows };
  }

  it('cuts and renormalises vectors an upstream sent longer than asked, and estimates the tokens it did not count', async () => {
    const seen: EmbeddingRequest[] = [];
    const { uc, rows } = setup({
      embed: async (req) => {
        seen.push(req);
        return { embeddings: [[3, 4, 12]], warnings: [] };
      },
    });
    const out = await uc.embed(principal, { model, inputs: ['abcdefgh'], dimensions: 2 }, meta, names);
    expect(seen[0]).toMatchObject({ model: 'up', dimensions: 2 });
    expect(out.embeddings[0]![0]).toBeCloseTo(0.6, 12);
    expect(out.embeddings[0]![1]).toBeCloseTo(0.8, 12);
    expect(out.usage).toEqual({ inputTokens: 2, estimated: true });
    expect(rows[0]).toMatchObject({ inputTokens: 2, estimated: true, status: 'ok' });
  });

  it('refuses an answer with another number of vectors than inputs', async () => {
    const { uc } = setup({ embed: async () => ({ embeddings: [[1]], warnings: [] }) });
    await expect(uc.embed(principal, { model, inputs: ['a', 'b'] }, meta, names)).rejects.toMatchObject({
      reason: 'upstream_malformed_response',
    });
  });
});
