import type { AuditChange, AuditContext } from './audit-log.port';

/** The catalogue's kinds of entry: what the config file lists and the admin API changes one by one. */
export type CatalogueEntryKind = 'provider' | 'model' | 'group';

export interface CatalogueEntry {
  kind: CatalogueEntryKind;
  id: string;
  /** null: deleted through the admin API */
  body: Record<string, unknown> | null;
  source: 'file' | 'admin';
}

/** A literal key or header sent through the admin API while no GATEWAY_SECRET is set: it cannot be stored safely. */
export class SecretRequiredError extends Error {
  /** `apiKey` or `options.headers.<name>` */
  constructor(readonly field: string) {
    super(`a literal ${field} needs GATEWAY_SECRET to be stored encrypted`);
  }
}

/** The stored catalogue entries, written one admin change at a time. */
export interface CatalogueRepository {
  entries(): Promise<CatalogueEntry[]>;
  /**
   * Stores an admin write (body null deletes) and its audit record in one transaction; a literal credential it
   * cannot seal throws SecretRequiredError.
   */
  putAudited(
    author: AuditContext,
    kind: CatalogueEntryKind,
    id: string,
    body: Record<string, unknown> | null,
    audit: AuditChange,
  ): Promise<void>;
}

/** The whole configuration around the entries: checks a change against it, and applies what the store holds. */
export interface CatalogueChanges {
  /** throws invalid_config_change naming the field when the change would break the config */
  validate(kind: CatalogueEntryKind, id: string, body: Record<string, unknown> | null): Promise<void>;
  reload(): Promise<unknown>;
}
