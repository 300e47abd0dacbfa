import { getJson } from './api';
import { mergeBatches, type BatchRow, type MessageBatch, type OpenAiBatch } from './batch-rows';

export const BATCH_PAGE = 100;

/** The newest batches of the key's account in each format the gateway holds (OpenAI's `batch_…`, Anthropic's `msgbatch_…`). */
export async function listBatches(key: string): Promise<BatchRow[]> {
  const [openai, anthropic] = await Promise.all([
    getJson<{ data: OpenAiBatch[] }>(key, `/v1/batches?limit=${BATCH_PAGE}`),
    getJson<{ data: MessageBatch[] }>(key, `/v1/messages/batches?limit=${BATCH_PAGE}`),
  ]);
  return mergeBatches(openai.data, anthropic.data);
}
