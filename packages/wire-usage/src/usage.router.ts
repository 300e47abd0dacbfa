import { Router, type Request } from 'express';
import { invalid, type UsageFilter, type UsageQuery, type UsageRecord } from '@gateway/core';
import { errorMiddleware, principalOf, openAiErrorShape, requireKey, type Authenticator } from '@gateway/http-kit';

function time(req: Request, name: string): Date | undefined {
  const v = req.query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw invalid('invalid_time', `"${name}" must be Unix seconds or an ISO 8601 date.`, name);
  const d = /^\d{1,12}$/.test(v) ? new Date(Number(v) * 1000) : new Date(v);
  if (Number.isNaN(d.getTime())) throw invalid('invalid_time', `"${name}" must be Unix seconds or an ISO 8601 date.`, name);
  return d;
}

function text(req: Request, name: string): string | undefined {
  const v = req.query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.length > 256 || v.includes('\u0000'))
    throw invalid('invalid_filter', `"${name}" must be one string of at most 256 characters.`, name);
  return v;
}

export function encodeUsageRow(r: UsageRecord) {
  return {
    id: r.id,
    object: 'usage.record',
    created_at: Math.floor(r.createdAt.getTime() / 1000),
    request_id: r.requestId,
    key_id: r.keyId,
    model: r.model,
    format: r.format,
    status: r.status,
    http_status: r.httpStatus,
    error_code: r.errorCode ?? null,
    input_tokens: r.inputTokens ?? null,
    output_tokens: r.outputTokens ?? null,
    cached_tokens: r.cachedTokens ?? null,
    reasoning_tokens: r.reasoningTokens ?? null,
    latency_ms: r.latencyMs ?? null,
    ttft_ms: r.ttftMs ?? null,
    task_id: r.taskId ?? null,
    idempotency_key: r.idempotencyKey ?? null,
    provider: r.provider ?? null,
    upstream_request_id: r.upstreamRequestId ?? null,
    attempts: r.attempts ?? null,
    warnings: r.warnings ?? [],
    credits: r.credits ?? null,
  };
}

export function usageRouter(deps: { authenticate: Authenticator; usage: UsageQuery }): Router {
  const router = Router();
  router.get('/v1/usage', requireKey(deps.authenticate), async (req, res) => {
    const principal = principalOf(res);
    const limitRaw = text(req, 'limit') ?? '100';
    const limit = Number(limitRaw);
    if (!/^\d+$/.test(limitRaw) || limit < 1 || limit > 1000)
      throw invalid('invalid_limit', '"limit" must be an integer from 1 to 1000.', 'limit');
    const after = text(req, 'after');
    if (after !== undefined && !/^\d{1,18}$/.test(after))
      throw invalid('invalid_cursor', '"after" must be the id of a usage row.', 'after');
    const filter: Omit<UsageFilter, 'limit' | 'after'> = {
      accountId: principal.accountId,
      from: time(req, 'start_time'),
      to: time(req, 'end_time'),
      model: text(req, 'model'),
      format: text(req, 'format'),
      status: text(req, 'status'),
      taskId: text(req, 'task_id'),
      requestId: text(req, 'request_id'),
      idempotencyKey: text(req, 'idempotency_key'),
    };
    const [page, totals] = await Promise.all([deps.usage.list({ ...filter, limit, after }), deps.usage.dailyTotals(filter)]);
    const data = page.rows.map(encodeUsageRow);
    res.json({
      object: 'list',
      data,
      has_more: page.hasMore,
      first_id: data[0]?.id ?? null,
      last_id: data[data.length - 1]?.id ?? null,
      daily_totals: totals.map((t) => ({
        date: t.day,
        model: t.model,
        requests: t.requests,
        input_tokens: t.inputTokens,
        output_tokens: t.outputTokens,
      })),
    });
  });
  router.use('/v1/usage', errorMiddleware(openAiErrorShape.render));
  return router;
}
