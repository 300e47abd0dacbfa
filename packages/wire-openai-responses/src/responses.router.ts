import { Router, type Response } from 'express';
import {
  collectStream,
  GatewayError,
  invalid,
  newId,
  toGatewayError,
  type Principal,
  type ResponseStore,
  type TextGeneration,
  type TextResult,
  type TextStreamPart,
  type UsageLog,
} from '@gateway/core';
import {
  admitStream,
  compileValidator,
  countInputTokens,
  errorMiddleware,
  jsonBody,
  principalOf,
  renderOpenAiError,
  requireKey,
  SseWriter,
  type Authenticator,
} from '@gateway/http-kit';
import { CompactionSealer } from './compaction.seal';
import { compactHandler, compactionOpener } from './responses.compact';
import { resolveItemReferences } from './item-references';
import {
  flattenInputItems,
  flattenTools,
  liftAdditionalTools,
  restoreDocument,
  StreamToolRestorer,
  type ToolNaming,
} from './responses.tools';
import { decodeInputItemsQuery, encodeInputItems, pageInputItems } from './responses.input-items';
import { decodeResponsesRequest } from './responses.request.codec';
import { responsesRequestSchema } from './responses.request.schema';
import { encodeResult, wantsSummary, type ResponseHeader } from './responses.response.codec';
import { ResponseEventEncoder, type ResponseEvent } from './responses.stream.codec';
import { conversationAfter, loadStored } from './stored-responses';

const validate = compileValidator<Record<string, any>>(responsesRequestSchema);

export interface ResponsesRouterDeps {
  authenticate: Authenticator;
  text: TextGeneration;
  store: ResponseStore;
  /** compaction rows: compaction calls no model, so TextGeneration does not log it */
  usage: UsageLog;
  /** the server secret that seals compaction items (one place: the wiring) */
  compactionSecret: string | Buffer;
}

async function* replay(parts: TextStreamPart[]): AsyncGenerator<TextStreamPart> {
  yield* parts;
}

export function openAiResponsesRouter(deps: ResponsesRouterDeps): Router {
  const router = Router();
  const sealer = new CompactionSealer(deps.compactionSecret);
  const auth = requireKey(deps.authenticate);

  router.post('/v1/responses/compact', auth, jsonBody(), compactHandler({ ...deps, sealer }));

  /** A create body → the canonical request, continuing the stored history of previous_response_id when given. */
  const decode = async (principal: Principal, body: Record<string, any>) => {
    const model = deps.text.resolve(principal, body.model);
    const previousId: string | null = body.previous_response_id ?? null;
    const previous = previousId ? await loadStored(deps.store, principal, previousId, 'previous_response_id') : undefined;
    const lifted = liftAdditionalTools(body);
    const { tools, naming } = flattenTools(lifted.tools);
    const input = flattenInputItems(await resolveItemReferences(deps.store, principal, lifted.input));
    return {
      model,
      previousId,
      naming,
      ...decodeResponsesRequest({ ...lifted, tools, input }, model, previous?.conversation, compactionOpener(sealer, principal.accountId)),
    };
  };

  /** OpenAI's input-token count: a create body (nothing runs, nothing is stored), counted as count_tokens counts. */
  router.post('/v1/responses/input_tokens', auth, jsonBody(), async (req, res) => {
    const principal = principalOf(res);
    const { request } = await decode(principal, validate(req.body));
    res.json({
      object: 'response.input_tokens',
      input_tokens: await countInputTokens(res, deps.text, principal, request, 'openai-responses'),
    });
  });

  router.post('/v1/responses', auth, jsonBody(), async (req, res) => {
    const principal = principalOf(res);
    const body = validate(req.body);
    const { model, previousId, request, conversation, naming } = await decode(principal, body);
    const dropped = naming.dropped.map((t) => `tool ${t} dropped: hosted tools are not available on this upstream`);
    if (dropped.length) res.setHeader('x-gateway-warnings', dropped.join('; '));
    const header: ResponseHeader = { id: `resp_${newId('', 12)}`, createdAt: Math.floor(Date.now() / 1000), model: model.id, body };
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const meta = { format: 'openai-responses', requestId: res.locals.requestId as string, signal: abort.signal };
    // Saved only after success, so a failed or abandoned request leaves nothing behind.
    const save = async (document: object, result: TextResult) => {
      if (body.store === false) return;
      await deps.store.save({
        id: header.id,
        accountId: principal.accountId,
        model: model.id,
        previousResponseId: previousId,
        createdAt: new Date(header.createdAt * 1000),
        document: document as Record<string, unknown>,
        conversation: conversationAfter(conversation, result),
      });
    };

    if (!body.stream) {
      const result = await deps.text.generate(principal, request, meta);
      if (result.warnings.length) res.setHeader('x-gateway-warnings', [...dropped, ...result.warnings].join('; '));
      const document = restoreDocument(encodeResult(header, result), naming);
      await save(document, result);
      res.json(document);
      return;
    }
    await streamResponse(res, deps, principal, { request, meta, header, summary: wantsSummary(body), save, abort, naming });
  });

  router.get('/v1/responses/:id', auth, async (req, res) => {
    if (req.query.stream === 'true')
      throw invalid('unsupported_stream', 'Replaying a stored response as a stream is not supported; omit "stream".', 'stream');
    const found = await loadStored(deps.store, principalOf(res), String(req.params.id), 'response_id');
    res.json(found.document);
  });

  router.delete('/v1/responses/:id', auth, async (req, res) => {
    const id = String(req.params.id);
    const principal = principalOf(res);
    await loadStored(deps.store, principal, id, 'response_id');
    await deps.store.deleteForAccount(principal.accountId, id);
    res.json({ id, object: 'response', deleted: true });
  });

  router.get('/v1/responses/:id/input_items', auth, async (req, res) => {
    const query = decodeInputItemsQuery(req.query as Record<string, unknown>);
    const found = await loadStored(deps.store, principalOf(res), String(req.params.id), 'response_id');
    res.json(pageInputItems(encodeInputItems(found), query));
  });

  // Nothing runs in the background here, so a stored response is always finished: OpenAI's answer for a
  // response that was not created with background=true. The body (the SDK sends none) is not read.
  router.post('/v1/responses/:id/cancel', auth, async (req, res) => {
    await loadStored(deps.store, principalOf(res), String(req.params.id), 'response_id');
    throw invalid('not_background', 'Only responses created with background=true can be cancelled.');
  });

  router.use('/v1/responses', errorMiddleware(renderOpenAiError));
  return router;
}

interface StreamJob {
  request: Parameters<TextGeneration['stream']>[1];
  meta: Parameters<TextGeneration['stream']>[2];
  header: ResponseHeader;
  summary: boolean;
  save(document: object, result: TextResult): Promise<void>;
  abort: AbortController;
  naming: ToolNaming;
}

async function streamResponse(res: Response, deps: ResponsesRouterDeps, principal: Principal, job: StreamJob): Promise<void> {
  // The concurrent-streams limit is checked before the upstream is called: a refused stream costs it nothing.
  if (!(await admitStream(res))) return;
  const parts = deps.text.stream(principal, job.request, job.meta);
  // Pull the first part before committing to 200, so an upstream failure is still a plain HTTP error.
  const first = await parts.next();
  const sse = new SseWriter(res);
  sse.abort.signal.addEventListener('abort', () => job.abort.abort());
  const encoder = new ResponseEventEncoder(job.header, job.summary);
  const restorer = new StreamToolRestorer(job.naming);
  const send = async (events: ResponseEvent[]) => {
    for (const e of restorer.restore(events)) await sse.send(e, e.type);
  };
  const seen: TextStreamPart[] = [];
  try {
    await send(encoder.start());
    if (!first.done) {
      seen.push(first.value);
      await send(encoder.encode(first.value));
    }
    for await (const part of { [Symbol.asyncIterator]: () => parts }) {
      if (sse.closed) break;
      seen.push(part);
      await send(encoder.encode(part));
    }
    if (sse.closed) return;
    const document = encoder.document && restoreDocument(encoder.document, job.naming);
    if (!document) throw new GatewayError('upstream_error', 'The upstream stream ended before it finished.', { code: 'incomplete_stream' });
    await job.save(document, await collectStream(job.header.model, replay(seen)));
    await send(encoder.complete(document));
  } catch (e) {
    await send(encoder.fail(toGatewayError(e)));
  } finally {
    if (sse.closed) await parts.return(undefined);
    sse.end();
  }
}
