import OpenAI, { toFile } from 'openai';
import type { TestGateway } from '../support/test-gateway';
import { COMPAT_KEY, startZeroConfigGateway } from './zero-config-gateway';

let openai: OpenAI;
let gw: TestGateway;

beforeAll(async () => {
  gw = await startZeroConfigGateway();
  openai = new OpenAI({ apiKey: COMPAT_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
});
afterAll(() => gw.stop());

const LINES = '{"custom_id":"a","method":"POST","url":"/v1/chat/completions","body":{"model":"sim-chat","messages":[]}}\n';

describe('openai SDK files', () => {
  it('create (purpose batch, from a Buffer), retrieve, content and delete', async () => {
    const created = await openai.files.create({ file: await toFile(Buffer.from(LINES), 'batch-input.jsonl'), purpose: 'batch' });
    expect(created).toMatchObject({ object: 'file', purpose: 'batch', filename: 'batch-input.jsonl', bytes: Buffer.byteLength(LINES) });
    expect(created.id).toMatch(/^file-/);
    expect(created.expires_at).toBe(created.created_at + 30 * 86_400);
    expect(await openai.files.retrieve(created.id)).toEqual(created);
    expect(await (await openai.files.content(created.id)).text()).toBe(LINES);
    expect(await openai.files.delete(created.id)).toEqual({ id: created.id, object: 'file', deleted: true });
    await expect(openai.files.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
  });

  it('create with expires_after as the SDK encodes it', async () => {
    const f = await openai.files.create({
      file: await toFile(Buffer.from('notes'), 'notes.txt'),
      purpose: 'user_data',
      expires_after: { anchor: 'created_at', seconds: 3600 },
    });
    expect(f.expires_at).toBe(f.created_at + 3600);
  });

  it('refuses another purpose with an error the SDK raises as a 400', async () => {
    const refused = openai.files.create({ file: await toFile(Buffer.from('x'), 'x.jsonl'), purpose: 'fine-tune' });
    await expect(refused).rejects.toMatchObject({ status: 400, param: 'purpose', code: 'invalid_purpose' });
  });

  it('list pages through every file with after and has_more', async () => {
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c'])
      ids.push((await openai.files.create({ file: await toFile(Buffer.from(name), `${name}.jsonl`), purpose: 'batch' })).id);
    const seen: string[] = [];
    for await (const f of openai.files.list({ limit: 2, purpose: 'batch' })) seen.push(f.id);
    expect(seen).toEqual(expect.arrayContaining(ids));
    expect(seen.slice(0, 3)).toEqual([...ids].reverse());
    const page = await openai.files.list({ limit: 2, order: 'asc', purpose: 'batch' });
    expect(page.hasNextPage()).toBe(true);
    expect(page.data.map((f) => f.id)).toEqual(ids.slice(0, 2));
  });
});
