import type { Principal } from '../auth';
import { BATCH_LIMITS, BatchLineReader, emptyBatchUsage, newBatchId, textLines, type Batch, type BatchEndpoints } from '../batch';
import type { ModelCatalogue } from '../catalogue';
import { GatewayError, invalid } from '../errors';
import type { BatchListQuery, BatchStore } from '../ports/batch-store.port';
import type { Files } from './files';
import { resolveModel } from './resolve-model';

export interface BatchCreate {
  inputFileId: string;
  endpoint: string;
  completionWindow: string;
  metadata?: Record<string, string> | null;
}

export interface BatchesDeps {
  batches: BatchStore;
  files: Files;
  catalogue: ModelCatalogue;
  /** the endpoints a line may call (the wire format's table) */
  endpoints: BatchEndpoints;
  /** the endpoint's own check of a request body (its schema): the refusal's message, or null when it passes */
  checkBody(endpoint: string, body: Record<string, unknown>): Promise<string | null>;
  now?: () => Date;
  /** the completion window (24 h; BATCH_COMPLETION_WINDOW_MS shortens it for tests) */
  windowMs?: number;
}

const notFound = (id: string) =>
  new GatewayError('not_found', `No batch found with id '${id}'.`, { code: 'batch_not_found', param: 'batch_id' });

/**
 * Batches of an account: created from an uploaded JSONL file, validated whole before any work (a refused line fails
 * the batch, which then charges nothing and calls nothing), then answered line by line by the runner
 * (batch-runner.ts) as live requests of the key that created it.
 */
export class Batches {
  private readonly now: () => Date;

  constructor(private readonly deps: BatchesDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async create(principal: Principal, request: BatchCreate): Promise<Batch> {
    const kind = this.deps.endpoints[request.endpoint];
    if (!kind) throw invalid('invalid_endpoint', `"endpoint" must be one of ${Object.keys(this.deps.endpoints).join(', ')}.`, 'endpoint');
    if (request.completionWindow !== '24h')
      throw invalid('invalid_completion_window', '"completion_window" must be "24h".', 'completion_window');
    const content = await this.deps.files.content(principal, request.inputFileId).catch((e: unknown) => {
      throw e instanceof GatewayError && e.reason === 'not_found'
        ? new GatewayError('not_found', `No such File object: ${request.inputFileId}`, { code: 'file_not_found', param: 'input_file_id' })
        : e;
    });
    if (content.file.purpose !== 'batch')
      throw invalid(
        'invalid_input_file',
        `File ${request.inputFileId} was uploaded with purpose "${content.file.purpose}", not "batch".`,
        'input_file_id',
      );

    const reader = new BatchLineReader(request.endpoint);
    for await (const raw of textLines(content.open() as AsyncIterable<Uint8Array | string>)) {
      const line = reader.push(raw);
      if (!line) continue;
      const model = line.body.model;
      try {
        resolveModel(this.deps.catalogue, principal, model, kind);
      } catch (e) {
        reader.refuse(line.line, e instanceof GatewayError ? e.code : 'invalid_model', (e as Error).message, 'body.model');
        continue;
      }
      const refusal = await this.deps.checkBody(request.endpoint, line.body);
      if (refusal) reader.refuse(line.line, 'invalid_request', refusal, 'body');
    }
    const errors = reader.finish();
    const now = this.now();
    const batch: Batch = {
      id: newBatchId(now),
      accountId: principal.accountId,
      keyId: principal.keyId,
      endpoint: request.endpoint,
      inputFileId: request.inputFileId,
      completionWindow: request.completionWindow,
      status: errors.length ? 'failed' : 'in_progress',
      metadata: request.metadata ?? null,
      errors: errors.length ? errors : null,
      outputFileId: null,
      errorFileId: null,
      createdAt: now,
      inProgressAt: errors.length ? null : now,
      finalizingAt: null,
      completedAt: null,
      failedAt: errors.length ? now : null,
      expiredAt: null,
      cancellingAt: null,
      cancelledAt: null,
      expiresAt: new Date(now.getTime() + (this.deps.windowMs ?? BATCH_LIMITS.completionWindowMs)),
      counts: { total: errors.length ? 0 : reader.lines.length, completed: 0, failed: 0 },
      usage: emptyBatchUsage(),
    };
    await this.deps.batches.create(batch, errors.length ? [] : reader.lines);
    return batch;
  }

  async get(principal: Principal, id: string): Promise<Batch> {
    const batch = await this.deps.batches.get(principal.accountId, id);
    if (!batch) throw notFound(id);
    return batch;
  }

  list(principal: Principal, query: BatchListQuery): Promise<Batch[]> {
    return this.deps.batches.list(principal.accountId, { ...query, limit: Math.min(Math.max(1, query.limit), 100) });
  }

  /** Stops new lines at once; the runner ends the batch `cancelled` when none is in flight. Ended batches stay as they are. */
  async cancel(principal: Principal, id: string): Promise<Batch> {
    const batch = await this.deps.batches.requestCancel(principal.accountId, id, this.now());
    if (!batch) throw notFound(id);
    return batch;
  }
}
