import { SIM_EMBEDDING_DIMENSIONS, SimulatorEmbeddingModel } from './simulator-embedding-model';

const ctx = { signal: new AbortController().signal, requestId: 'r' };
const model = new SimulatorEmbeddingModel();
const embed = async (inputs: Array<string | number[]>, dimensions?: number) =>
  (await model.embed({ model: 'sim-embed', inputs, dimensions }, ctx)).embeddings;
const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const norm = (a: number[]) => Math.sqrt(dot(a, a));

describe('the simulator embedding model', () => {
  it('gives unit vectors of 1,536 dimensions by default, the same for the same text', async () => {
    const [a, b] = await embed(['The cat sat on the mat.', 'The cat sat on the mat.']);
    expect(a).toHaveLength(SIM_EMBEDDING_DIMENSIONS);
    expect(norm(a!)).toBeCloseTo(1, 10);
    expect(a).toEqual(b);
  });

  it('puts related texts measurably closer than unrelated ones', async () => {
    const [cat, kitten, revenue] = await embed([
      'A cat is sleeping on the warm mat',
      'The cats slept on a mat in the warm sun',
      'Quarterly revenue grew by ten percent in Europe',
    ]);
    const related = dot(cat!, kitten!);
    const unrelated = dot(cat!, revenue!);
    expect(related).toBeGreaterThan(0.4);
    expect(Math.abs(unrelated)).toBeLessThan(0.15);
    expect(related - unrelated).toBeGreaterThan(0.3);
  });

  it('honours dimensions: the default vector cut and renormalised', async () => {
    const [full] = await embed(['embeddings that mean something']);
    const [short] = await embed(['embeddings that mean something'], 256);
    expect(short).toHaveLength(256);
    expect(norm(short!)).toBeCloseTo(1, 10);
    const head = full!.slice(0, 256);
    const scale = norm(head);
    short!.forEach((x, i) => expect(x).toBeCloseTo(head[i]! / scale, 12));
    expect(await embed(['x'], 3072)).toEqual([expect.any(Array)]);
    expect((await embed(['x'], 3072))[0]).toHaveLength(3072);
  });

  it('embeds token arrays, and reports the tokens it read', async () => {
    const out = await model.embed({ model: 'sim-embed', inputs: [[1, 2, 3], 'abcdefgh'] }, ctx);
    expect(out.embeddings).toHaveLength(2);
    expect(norm(out.embeddings[0]!)).toBeCloseTo(1, 10);
    expect(out.usage).toEqual({ inputTokens: 5 });
  });

  it('gives text of punctuation or stop words a direction of its own', async () => {
    const [a, b] = await embed(['!!!', 'the of and']);
    expect(norm(a!)).toBeCloseTo(1, 10);
    expect(norm(b!)).toBeCloseTo(1, 10);
  });
});
