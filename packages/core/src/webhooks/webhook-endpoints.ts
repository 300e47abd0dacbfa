/** Managing an account's webhook endpoints: the rules behind the account API and the admin API alike. */
import { newId } from '../auth';
import { GatewayError, invalid } from '../errors';
import type { AuditChange, AuditContext, AuditedChanges } from '../ports/audit-log.port';
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookEndpointRepository } from '../ports/webhook-store.port';
import { isWebhookEventType, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhook-events';
import { newWebhookSecret } from './webhook-signing';
import { checkWebhookUrl, type WebhookUrlRule } from './webhook-url';

/** Enough for any real setup; a cap keeps one account from fanning every status change out without bound. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 20;

export interface CreateEndpointInput {
  url: unknown;
  events?: unknown;
}

export function endpointNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `No webhook endpoint with id ${JSON.stringify(id.slice(0, 100))} exists for this account.`, {
    code: 'webhook_endpoint_not_found',
  });
}

function checkEvents(raw: unknown): WebhookEventType[] {
  if (raw === undefined || raw === null) return [...WEBHOOK_EVENT_TYPES];
  if (!Array.isArray(raw) || raw.length === 0)
    throw invalid('invalid_webhook_events', `"events" must be a non-empty array of: ${WEBHOOK_EVENT_TYPES.join(', ')}.`, 'events');
  const bad = raw.find((e) => !isWebhookEventType(e));
  if (bad !== undefined)
    throw invalid(
      'invalid_webhook_events',
      `"events" has an unknown event type ${JSON.stringify(bad)}; known: ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
      'events',
    );
  return [...new Set(raw as WebhookEventType[])];
}

/** What an audit record keeps of an endpoint: never its secret (it has none in this shape). */
const snapshot = (e: WebhookEndpoint) => ({ id: e.id, account: e.accountId, url: e.url, events: e.events });
const endpointTarget = (id: string) => ({ type: 'webhook_endpoint', id });
const REISSUED = { secret: '(re-issued)' };

export class WebhookEndpoints {
  /** audit: when set, each change (with the caller's context) writes its audit record in the change's transaction. */
  constructor(private readonly deps: { repo: WebhookEndpointRepository; urlRule: WebhookUrlRule; audit?: AuditedChanges }) {}

  /** Runs a change on the repository, audited in one transaction when there is an audit log and a caller. */
  private change<T>(
    ctx: AuditContext | undefined,
    fn: (repo: WebhookEndpointRepository) => Promise<{ result: T; audit: AuditChange | null }>,
  ): Promise<T> {
    if (this.deps.audit && ctx) return this.deps.audit.run(ctx, ({ webhooks }) => fn(webhooks));
    return fn(this.deps.repo).then((r) => r.result);
  }

  /** The new endpoint and its secret: the only time the secret is shown. */
  async create(accountId: string, input: CreateEndpointInput, ctx?: AuditContext): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const url = checkWebhookUrl(input.url, this.deps.urlRule);
    const events = checkEvents(input.events);
    return this.change(ctx, async (repo) => {
      if ((await repo.list(accountId)).length >= MAX_ENDPOINTS_PER_ACCOUNT)
        throw new GatewayError('conflict', `An account has at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints; delete one first.`, {
          code: 'too_many_webhook_endpoints',
        });
      const secret = newWebhookSecret();
      const endpoint = await repo.create({ id: newId('we_'), accountId, url: url.toString(), events, secret });
      return {
        result: { endpoint, secret },
        audit: {
          action: 'webhook_endpoint.create',
          target: endpointTarget(endpoint.id),
          accountId,
          before: null,
          after: snapshot(endpoint),
        },
      };
    });
  }

  /** The account's endpoints and its callback_url secret (created on first use). */
  async list(accountId: string): Promise<{ endpoints: WebhookEndpoint[]; callbackSecret: string }> {
    const [endpoints, callbackSecret] = await Promise.all([this.deps.repo.list(accountId), this.deps.repo.accountSecret(accountId)]);
    return { endpoints, callbackSecret };
  }

  /** A new callback_url signing secret for the account (admin): the old one stops verifying at once; shown this once. */
  reissueAccountSecret(accountId: string, ctx?: AuditContext): Promise<string> {
    return this.change(ctx, async (repo) => ({
      result: await repo.reissueAccountSecret(accountId),
      audit: { action: 'webhook_secret.reissue', target: { type: 'account', id: accountId }, accountId, before: null, after: REISSUED },
    }));
  }

  /** A new signing secret for an endpoint (admin); shown this once. */
  async reissueEndpointSecret(id: string, ctx?: AuditContext): Promise<string> {
    return this.change(ctx, async (repo) => {
      const endpoint = await repo.get(id);
      const secret = endpoint && (await repo.reissueEndpointSecret(id));
      if (!endpoint || !secret) throw endpointNotFound(id);
      return {
        result: secret,
        audit: {
          action: 'webhook_secret.reissue',
          target: endpointTarget(id),
          accountId: endpoint.accountId,
          before: null,
          after: REISSUED,
        },
      };
    });
  }

  /** Every account's endpoints (admin). */
  listAll(): Promise<WebhookEndpoint[]> {
    return this.deps.repo.list();
  }

  async get(accountId: string | undefined, id: string): Promise<WebhookEndpoint> {
    const found = await this.deps.repo.get(id, accountId);
    if (!found) throw endpointNotFound(id);
    return found;
  }

  /** A new url and/or event list for an endpoint; its secret stays. A field left out is kept. */
  async update(
    accountId: string | undefined,
    id: string,
    input: { url?: unknown; events?: unknown },
    ctx?: AuditContext,
  ): Promise<WebhookEndpoint> {
    const patch = {
      ...(input.url !== undefined ? { url: checkWebhookUrl(input.url, this.deps.urlRule).toString() } : {}),
      ...(input.events !== undefined ? { events: checkEvents(input.events) } : {}),
    };
    return this.change(ctx, async (repo) => {
      const before = await repo.get(id, accountId);
      const after = before && (await repo.update(id, patch, accountId));
      if (!before || !after) throw endpointNotFound(id);
      return {
        result: after,
        audit: {
          action: 'webhook_endpoint.update',
          target: endpointTarget(id),
          accountId: after.accountId,
          before: snapshot(before),
          after: snapshot(after),
        },
      };
    });
  }

  async remove(accountId: string | undefined, id: string, ctx?: AuditContext): Promise<void> {
    await this.change(ctx, async (repo) => {
      const before = await repo.get(id, accountId);
      if (!before || !(await repo.remove(id, accountId))) throw endpointNotFound(id);
      return {
        result: undefined,
        audit: {
          action: 'webhook_endpoint.delete',
          target: endpointTarget(id),
          accountId: before.accountId,
          before: snapshot(before),
          after: null,
        },
      };
    });
  }

  async deliveries(
    accountId: string | undefined,
    id: string,
    limit = 100,
  ): Promise<Array<WebhookDelivery & { attemptLog: WebhookAttempt[] }>> {
    await this.get(accountId, id);
    return this.deps.repo.deliveries(id, limit);
  }
}
