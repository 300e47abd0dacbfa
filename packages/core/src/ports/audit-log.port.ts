import type { KeyChangeRepository } from './key-repository.port';
import type { McpServerRepository } from './mcp-server-repository.port';
import type { QuotaRepository } from './quota-repository.port';
import type { WebhookEndpointRepository } from './webhook-store.port';

/**
 * Who made a change: the platform admin key, an account admin's key (its id), the CLI, an SSO subject, the config
 * file a gateway imported at start-up (its path), or a migration that changed keys (its name).
 */
export interface AuditActor {
  type: 'admin_key' | 'key' | 'cli' | 'sso' | 'config_file' | 'migration';
  id: string;
}

/** Who, and from where: what a route (or the CLI) knows about the caller. */
export interface AuditContext {
  actor: AuditActor;
  requestId: string | null;
  address: string | null;
}

/** What changed: `action` is `<target type>.<verb>` (`key.create`, `account.update`); before/after carry no secret. */
export interface AuditChange {
  action: string;
  target: { type: string; id: string };
  /** the account the change belongs to (its admins read it in GET /v1/audit); null for platform-wide changes */
  accountId: string | null;
  before: unknown;
  after: unknown;
}

export interface AuditRecord extends AuditChange, AuditContext {
  id: string;
  at: Date;
}

export interface AuditFilter {
  /** an actor id, or `type:id` */
  actor?: string;
  action?: string;
  /** a target id, or `type:id` */
  target?: string;
  accountId?: string;
  from?: Date;
  to?: Date;
  limit?: number;
}

/** The stores a change may write, bound to the transaction its audit record is written in. */
export interface ChangeStores {
  keys: KeyChangeRepository;
  quotas: QuotaRepository;
  webhooks: WebhookEndpointRepository;
  mcpServers: McpServerRepository;
}

/**
 * The append-only audit log. `run` makes a change and writes its record in one transaction: a change that throws
 * (refused, or failed) writes nothing, and a record is never written without its change. Nothing edits or deletes one.
 */
export interface AuditedChanges {
  run<T>(ctx: AuditContext, change: (stores: ChangeStores) => Promise<{ result: T; audit: AuditChange | null }>): Promise<T>;
  list(filter: AuditFilter): Promise<AuditRecord[]>;
}
