/**
 * An upstream MCP server registered through the admin API (the config file's own are not stored here). Its header
 * values are credentials: clear in memory, sealed at rest by the store, injected only into requests to the server.
 */
export interface RegisteredMcpServer {
  id: string;
  url: string;
  /** lowercase header name -> value */
  headers: Record<string, string>;
  /** credits per tool call; null = free */
  pricePerCall: number | null;
}

/** The registered servers; a write moves the catalogue's version, so every instance reloads them. */
export interface McpServerRepository {
  list(): Promise<RegisteredMcpServer[]>;
  /**
   * Stores a new server; an id equal (or equal but for case) to a stored one throws a conflict, so two admins
   * registering at once cannot both win. A header value it cannot seal (no sealing secret) throws SecretRequiredError.
   */
  create(server: RegisteredMcpServer): Promise<void>;
  /** Replaces a stored server; false when there is none (any more). Seals as `create` does. */
  update(server: RegisteredMcpServer): Promise<boolean>;
  /** false when there was no such server */
  remove(id: string): Promise<boolean>;
}

/** The whole configuration around the registered servers: checks a change against it, and applies the stored servers. */
export interface McpServerChanges {
  /** throws invalid_config_change naming the field when these registered servers would break the config */
  validate(registered: readonly RegisteredMcpServer[]): Promise<void>;
  reload(): Promise<unknown>;
}
