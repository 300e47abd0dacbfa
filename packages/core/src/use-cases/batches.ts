import type { Principal } from '../auth';
import {
  BATCH_LIMITS,
  BatchLineReader,
  batchEnded,
  batchFormatOf,
  batchIdPrefix,
  emptyBatchUsage,
  newBatchId,
  textLines,
  type Batch,
  type BatchEndpoints,
  type BatchFormat,
  type BatchLineError,
  type BatchLineInput,
  type LineOutcome,
} from '../batch';
import type { ModelCatalogue, ModelKind } from '../catalogue';
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

/** Anthropic's name of a refused request: `requests.N.params` (or `.custom_id`), 0-based. */
const anthropicPlace = (index: number | null, param: string | null): string =>
  index === null ? 'requests' : `requests.${index}${param === 'custom_id' ? '.custom_id' : '.params'}`;

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
    const kind = this.endpointKind(request.endpoint, 'openai');
    if (!kind) throw invalid('invalid_endpoint', `"endpoint" must be one of ${this.endpointsOf('openai').join(', ')}.`, 'endpoint');
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
    for await (const raw of textLines(content.open() as AsyncIterable<Uint8Array | string>))
      await this.check(principal, reader, kind, reader.push(raw));
    const errors = reader.finish();
    return this.store(principal, request, reader, errors, 'openai');
  }

  /**
   * A batch whose requests come inline (Anthropic's `requests[{custom_id, params}]`, Gemini's inlined requests): the
   * same checks, but a refused request refuses the whole call (400, naming the request as the format does: `placeOf`,
   * Anthropic's `requests.N.params` by default) instead of creating a failed batch.
   */
  async createInline(
    principal: Principal,
    request: {
      endpoint: string;
      requests: ReadonlyArray<{ custom_id: unknown; params: unknown }>;
      maxRequests: number;
      format?: Exclude<BatchFormat, 'openai'>;
      metadata?: Record<string, string> | null;
      placeOf?: (index: number | null, param: string | null) => string;
    },
  ): Promise<Batch> {
    const format = request.format ?? 'anthropic';
    const kind = this.endpointKind(request.endpoint, format);
    if (!kind) throw invalid('invalid_endpoint', `${request.endpoint} takes no batches.`);
    const reader = new BatchLineReader(request.endpoint);
    for (const [i, r] of request.requests.entries())
      await this.check(
        principal,
        reader,
        kind,
        reader.pushRow({ custom_id: r.custom_id, method: 'POST', url: request.endpoint, body: r.params }, i + 1),
      );
    const [first] = reader.finish(request.maxRequests);
    if (first) {
      const placeOf = request.placeOf ?? anthropicPlace;
      const at = placeOf(first.line === null ? null : first.line - 1, first.param);
      throw invalid(first.code, `${at}: ${first.message}`, at);
    }
    const create = { inputFileId: '', endpoint: request.endpoint, completionWindow: '24h', metadata: request.metadata };
    return this.store(principal, create, reader, [], format);
  }

  private endpointsOf(format: BatchFormat): string[] {
    return Object.keys(this.deps.endpoints).filter((e) => this.deps.endpoints[e]!.format === format);
  }

  private endpointKind(endpoint: string, format: BatchFormat): ModelKind | undefined {
    const e = this.deps.endpoints[endpoint];
    return e?.format === format ? e.kind : undefined;
  }

  /** A parsed line's model (one the key may use, of the endpoint's kind) and body (its route's own check). */
  private async check(principal: Principal, reader: BatchLineReader, kind: ModelKind, line: BatchLineInput | undefined): Promise<void> {
    if (!line) return;
    try {
      resolveModel(this.deps.catalogue, principal, line.body.model, kind);
    } catch (e) {
      reader.refuse(line.line, e instanceof GatewayError ? e.code : 'invalid_model', (e as Error).message, 'body.model');
      return;
    }
    const refusal = await this.deps.checkBody(reader.endpoint, line.body);
    if (refusal) reader.refuse(line.line, 'invalid_request', refusal, 'body');
  }

  private async store(
    principal: Principal,
    request: BatchCreate,
    reader: BatchLineReader,
    errors: BatchLineError[],
    format: BatchFormat,
  ): Promise<Batch> {
    const now = this.now();
    const failed = errors.length > 0;
    const batch: Batch = {
      id: newBatchId(now, format),
      accountId: principal.accountId,
      keyId: principal.keyId,
      endpoint: request.endpoint,
      inputFileId: request.inputFileId,
      completionWindow: request.completionWindow,
      status: failed ? 'failed' : 'in_progress',
      metadata: request.metadata ?? null,
      errors: failed ? errors : null,
      outputFileId: null,
      errorFileId: null,
      createdAt: now,
      inProgressAt: failed ? null : now,
      finalizingAt: null,
      completedAt: null,
      failedAt: failed ? now : null,
      expiredAt: null,
      cancellingAt: null,
      cancelledAt: null,
      expiresAt: new Date(now.getTime() + (this.deps.windowMs ?? BATCH_LIMITS.completionWindowMs)),
      counts: { total: failed ? 0 : reader.lines.length, completed: 0, failed: 0 },
      usage: emptyBatchUsage(),
    };
    await this.deps.batches.create(batch, failed ? [] : reader.lines);
    return batch;
  }

  /** The batch, when it is the account's and of `format` (another format's id is a missing batch too). */
  async get(principal: Principal, id: string, format: BatchFormat = 'openai'): Promise<Batch> {
    const batch = batchFormatOf(id) === format ? await this.deps.batches.get(principal.accountId, id) : null;
    if (!batch) throw notFound(id);
    return batch;
  }

  /** An ended batch's lines in order with their outcomes (null: never run, cancelled or expired with the batch). */
  async results(
    principal: Principal,
    id: string,
    format: BatchFormat,
  ): Promise<{ batch: Batch; outcomes: AsyncIterable<{ customId: string; outcome: LineOutcome | null }> }> {
    const batch = await this.get(principal, id, format);
    if (!batchEnded(batch.status))
      throw new GatewayError('conflict', `Batch ${id} is still ${batch.status}; its results are ready once it has ended.`, {
        code: 'batch_not_ended',
      });
    return { batch, outcomes: this.deps.batches.outcomes(id) };
  }

  /** Deletes an ended batch and its lines (its usage rows stay). */
  async delete(principal: Principal, id: string, format: BatchFormat): Promise<void> {
    const batch = await this.get(principal, id, format);
    if (!batchEnded(batch.status))
      throw invalid('batch_not_ended', `Batch ${id} is still ${batch.status}; cancel it and wait for it to end before deleting it.`);
    await this.deps.batches.delete(principal.accountId, id);
  }

  list(principal: Principal, query: Omit<BatchListQuery, 'prefix'>, format: BatchFormat = 'openai', maxLimit = 100): Promise<Batch[]> {
    return this.deps.batches.list(principal.accountId, {
      ...query,
      prefix: batchIdPrefix(format),
      limit: Math.min(Math.max(1, query.limit), maxLimit + 1),
    });
  }

  /** Stops new lines at once; the runner ends the batch `cancelled` when none is in flight. Ended batches stay as they are. */
  async cancel(principal: Principal, id: string, format: BatchFormat = 'openai'): Promise<Batch> {
    await this.get(principal, id, format);
    const batch = await this.deps.batches.requestCancel(principal.accountId, id, this.now());
    if (!batch) throw notFound(id);
    return batch;
  }
}
