/** The part of OpenAI's batch object (GET /v1/batches) the list shows. */
export interface OpenAiBatch {
  id: string;
  status: string;
  created_at: number;
  request_counts?: { total: number; completed: number; failed: number } | null;
  output_file_id?: string | null;
  error_file_id?: string | null;
}

/** The part of Anthropic's MessageBatch (GET /v1/messages/batches) the list shows. */
export interface MessageBatch {
  id: string;
  processing_status: 'in_progress' | 'canceling' | 'ended';
  created_at: string;
  request_counts: { processing: number; succeeded: number; errored: number; canceled: number; expired: number };
}

/** A batch of either format, as one row: `done` counts the lines answered or ended, `failed` those that did not succeed. */
export interface BatchRow {
  id: string;
  format: 'OpenAI' | 'Anthropic';
  status: string;
  active: boolean;
  done: number;
  total: number;
  failed: number;
  /** unix seconds */
  createdAt: number;
  /** what can be downloaded: OpenAI's output and error files, an ended message batch's results */
  downloads: Array<{ label: string; path: string; filename: string }>;
}

const OPENAI_ACTIVE = new Set(['validating', 'in_progress', 'finalizing', 'cancelling']);
export const fileContentPath = (fileId: string) => `/v1/files/${encodeURIComponent(fileId)}/content`;

export function openAiRow(b: OpenAiBatch): BatchRow {
  const c = b.request_counts ?? { total: 0, completed: 0, failed: 0 };
  const downloads: BatchRow['downloads'] = [];
  if (b.output_file_id) downloads.push({ label: 'Output file', path: fileContentPath(b.output_file_id), filename: `${b.id}_output.jsonl` });
  if (b.error_file_id) downloads.push({ label: 'Error file', path: fileContentPath(b.error_file_id), filename: `${b.id}_error.jsonl` });
  return {
    id: b.id,
    format: 'OpenAI',
    status: b.status,
    active: OPENAI_ACTIVE.has(b.status),
    done: c.completed + c.failed,
    total: c.total,
    failed: c.failed,
    createdAt: b.created_at,
    downloads,
  };
}

export function messageBatchRow(b: MessageBatch): BatchRow {
  const c = b.request_counts;
  const failed = c.errored + c.canceled + c.expired;
  const done = c.succeeded + failed;
  const ended = b.processing_status === 'ended';
  return {
    id: b.id,
    format: 'Anthropic',
    status: b.processing_status,
    active: !ended,
    done,
    total: done + c.processing,
    failed,
    createdAt: Math.floor(Date.parse(b.created_at) / 1000),
    downloads: ended
      ? [{ label: 'Results', path: `/v1/messages/batches/${encodeURIComponent(b.id)}/results`, filename: `${b.id}_results.jsonl` }]
      : [],
  };
}

/** Both formats' rows, newest first (ids tie-break: both are time-ordered). */
export function mergeBatches(openai: OpenAiBatch[], anthropic: MessageBatch[]): BatchRow[] {
  return [...openai.map(openAiRow), ...anthropic.map(messageBatchRow)].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
}
