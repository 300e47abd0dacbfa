import { Router } from 'express';
import {
  invalid,
  newId,
  type Principal,
  type Warning,
  type ResponsesConversation,
  type ResponseStore,
  type TextGeneration,
  type UsageLog,
} from '@gateway/core';
import {
  compileValidator,
  countInputTokens,
  errorMiddleware,
  jsonBody,
  openAiErrorShape,
  principalOf,
  pumpStream,
  requestSignal,
  requireKey,
  sendWarnings,
  type Authenticator,
} from '@gateway/http-kit';
import { CompactionSealer } from './compaction.seal';
import { compactHandler, compactionOpener } from './responses.compact';
import { resolveItemReferences } from './item-references';
import { flattenInputItems, flattenTools, liftAdditionalTools, restoreDocument, StreamToolRestorer } from './responses.tools';
import { decodeInputItemsQuery, encodeInputItems, pageInputItems } from './responses.input-items';
import { applyOptionItems } from './responses.option-items';
import { decodeResponsesRequest } from './responses.request.codec';
import { inputTokensRequestSchema, responsesRequestSchema, type ResponsesRequestBody } from './responses.request.schema';
import { encodeResult, wantsSummary, type ResponseHeader } from './responses.response.codec';
import { ResponseEventEncoder, type ResponseEvent } from './responses.stream.codec';
import { NativeEventRelay, nativeDocument, nativeRequestOf } from './responses.native';

const validateBody = compileValidator<ResponsesRequestBody>(responsesRequestSchema);
/** A create body, its option-only input items (configuration_update) applied first. */
const validate = (raw: unknown) => validateBody(applyOptionItems(raw));
const validateCountBody = compileValidator<ResponsesRequestBody>(inputTokensRequestSchema);

export interface ResponsesRouterDeps {
  authenticate: Authenticator;
  text: TextGeneration;
  store: ResponseStore;
  /** the stored-conversation use case, built by the composition root over the same text use case and store */
  conversations: ResponsesConversation;
  /** compaction rows: compaction calls no model, so TextGeneration does not log it */
  usage: UsageLog;
  /** the server secret that seals compaction items (one place: the wiring) */
  compactionSecret: string | Buffer;
  /** GATEWAY_SECRET_PREVIOUS: items sealed under it still open during a rotation */
  compactionPreviousSecret?: string;
}

const events = (list: ResponseEvent[]) => list.map((e) => ({ data: e, event: e.type }));

export function openAiResponsesRouter(deps: ResponsesRouterDeps): Router {
  const router = Router();
  const sealer = new CompactionSealer(deps.compactionSecret, deps.compactionPreviousSecret);
  const { conversations } = deps;
  const auth = requireKey(deps.authenticate);

  router.post('/v1/responses/compact', auth, jsonBody(), compactHandler({ ...deps, sealer }));

  /** A create body → the canonical request, continuing the stored history of previous_response_id when given. */
  const decode = async (principal: Principal, body: ResponsesRequestBody) => {
    const model = deps.text.resolve(principal, body.model);
    const previousId: string | null = body.previous_response_id ?? null;
    const previous = await conversations.previous(principal, previousId);
    const resolved = await resolveItemReferences(deps.store, principal, body.input);
    const lifted = liftAdditionalTools({ ...body, input: resolved } as ResponsesRequestBody);
    const { tools, hosted, naming } = flattenTools(lifted.tools);
    const input = flattenInputItems(lifted.input);
    // the flattened body is what the schema would accept for the upstream's tool set
    const decoded = decodeResponsesRequest(
      { ...lifted, tools, input } as ResponsesRequestBody,
      model,
      previous?.conversation,
      compactionOpener(sealer, principal.accountId),
    );
    const native = nativeRequestOf(body, resolved, previous?.conversation, decoded.unread);
    const request = { ...decoded.request, ...(hosted.length ? { hostedTools: hosted } : {}), native };
    return { model, previousId, naming, conversation: decoded.conversation, request };
  };

  /** OpenAI's input-token count: a create body (nothing runs, nothing is stored), counted as count_tokens counts. */
  router.post('/v1/responses/input_tokens', auth, jsonBody(), async (req, res) => {
    const principal = principalOf(res);
    const { request } = await decode(principal, validateCountBody(applyOptionItems(req.body)));
    res.json({
      object: 'response.input_tokens',
      input_tokens: await countInputTokens(res, deps.text, principal, request, 'openai-responses'),
    });
  });

  router.post('/v1/responses', auth, jsonBody(), async (req, res) => {
    const principal = principalOf(res);
    const body = validate(req.body);
    const { model, previousId, request, conversation, naming } = await decode(principal, body);
    const header: ResponseHeader = { id: `resp_${newId('', 12)}`, createdAt: Math.floor(Date.now() / 1000), model: model.id, body };
    const turn = {
      id: header.id,
      createdAt: new Date(header.createdAt * 1000),
      model: model.id,
      previousResponseId: previousId,
      conversation,
      request,
      store: body.store !== false,
    };
    const meta = {
      format: 'openai-responses',
      requestId: res.locals.requestId as string,
      signal: requestSignal(res),
      model,
      // hosted tools the chosen upstream does not run (core/hosted-tools.ts), known before the first event
      onWarnings: (w: Warning[]) => sendWarnings(res, w),
    };

    if (!body.stream) {
      const { result, document } = await conversations.generate(
        principal,
        turn,
        meta,
        (r) => nativeDocument(r, header) ?? restoreDocument(encodeResult(header, r), naming),
      );
      sendWarnings(res, result.warnings);
      res.json(document);
      return;
    }
    const encoder = new ResponseEventEncoder(header, wantsSummary(body));
    const restorer = new StreamToolRestorer(naming);
    // an upstream of this format streams its own events; canonical parts are then only recorded
    const relay = new NativeEventRelay(header);
    const streamed = conversations.stream(principal, turn, meta);
    await pumpStream(res, {
      parts: () => relay.watch(streamed.parts),
      start: () => (relay.active ? [] : events(restorer.restore(encoder.start()))),
      encode: (part) => (relay.active ? relay.relay(part) : events(restorer.restore(encoder.encode(part)))),
      finish: async () => {
        if (relay.active) {
          await streamed.complete(relay.document);
          return [];
        }
        // what is stored and announced is what the client declared: namespaces and custom tools restored
        const document = encoder.document && restoreDocument(encoder.document, naming);
        await streamed.complete(document);
        return events(encoder.complete(document!));
      },
      renderError: (err) => (relay.active ? relay.fail(err) : events(encoder.fail(err))),
    });
  });

  router.get('/v1/responses/:id', auth, async (req, res) => {
    if (req.query.stream === 'true')
      throw invalid('unsupported_stream', 'Replaying a stored response as a stream is not supported; omit "stream".', 'stream');
    const found = await conversations.load(principalOf(res), String(req.params.id), 'response_id');
    res.json(found.document);
  });

  router.delete('/v1/responses/:id', auth, async (req, res) => {
    const id = String(req.params.id);
    await conversations.delete(principalOf(res), id);
    res.json({ id, object: 'response', deleted: true });
  });

  router.get('/v1/responses/:id/input_items', auth, async (req, res) => {
    const query = decodeInputItemsQuery(req.query as Record<string, unknown>);
    const found = await conversations.load(principalOf(res), String(req.params.id), 'response_id');
    res.json(pageInputItems(encodeInputItems(found), query));
  });

  // Nothing runs in the background here, so a stored response is always finished: OpenAI's answer for a
  // response that was not created with background=true. The body (the SDK sends none) is not read.
  router.post('/v1/responses/:id/cancel', auth, async (req, res) => {
    await conversations.load(principalOf(res), String(req.params.id), 'response_id');
    throw invalid('not_background', 'Only responses created with background=true can be cancelled.');
  });

  router.use('/v1/responses', errorMiddleware(openAiErrorShape.render));
  return router;
}
