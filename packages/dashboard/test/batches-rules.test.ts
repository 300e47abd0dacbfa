import { mergeBatches, messageBatchRow, openAiRow, type MessageBatch, type OpenAiBatch } from '../src/batch-rows';

/** The Batches page's rows: both formats' counts as done/total/failed, their downloads, newest first. */
const openai = (over: Partial<OpenAiBatch> = {}): OpenAiBatch => ({
  id: 'batch_b',
  status: 'completed',
  created_at: 1_800_000_100,
  request_counts: { total: 4, completed: 3, failed: 1 },
  output_file_id: 'file-out',
  error_file_id: 'file-err',
  ...over,
});
const anthropic = (over: Partial<MessageBatch> = {}): MessageBatch => ({
  id: 'msgbatch_a',
  processing_status: 'in_progress',
  created_at: new Date(1_800_000_050_000).toISOString(),
  request_counts: { processing: 2, succeeded: 3, errored: 1, canceled: 1, expired: 0 },
  ...over,
});

describe('batch rows', () => {
  it("an OpenAI batch: done counts completed and failed lines, and links its output and error files' content", () => {
    expect(openAiRow(openai())).toMatchObject({ format: 'OpenAI', done: 4, total: 4, failed: 1, active: false, createdAt: 1_800_000_100 });
    expect(openAiRow(openai()).downloads).toEqual([
      { label: 'Output file', path: '/v1/files/file-out/content', filename: 'batch_b_output.jsonl' },
      { label: 'Error file', path: '/v1/files/file-err/content', filename: 'batch_b_error.jsonl' },
    ]);
    // running, before any file exists; an object without counts (validating) shows 0/0
    const running = openAiRow(openai({ status: 'in_progress', output_file_id: null, error_file_id: null, request_counts: null }));
    expect(running).toMatchObject({ active: true, done: 0, total: 0, failed: 0, downloads: [] });
  });

  it('a message batch: done counts every ended request, failed the ones not succeeded; results once ended', () => {
    const row = messageBatchRow(anthropic());
    expect(row).toMatchObject({
      format: 'Anthropic',
      status: 'in_progress',
      active: true,
      done: 5,
      total: 7,
      failed: 2,
      createdAt: 1_800_000_050,
    });
    expect(row.downloads).toEqual([]);
    const ended = messageBatchRow(anthropic({ processing_status: 'ended' }));
    expect(ended.downloads).toEqual([
      { label: 'Results', path: '/v1/messages/batches/msgbatch_a/results', filename: 'msgbatch_a_results.jsonl' },
    ]);
  });

  it('merges both formats newest first', () => {
    const rows = mergeBatches([openai(), openai({ id: 'batch_old', created_at: 1_700_000_000 })], [anthropic()]);
    expect(rows.map((r) => r.id)).toEqual(['batch_b', 'msgbatch_a', 'batch_old']);
  });
});
