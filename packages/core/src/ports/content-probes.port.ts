/** One running instance's probe: a small object it wrote to its content store, and what the object holds. */
export interface ContentProbe {
  instanceId: string;
  /** where that instance keeps content, as it describes it (never with credentials) */
  store: string;
  probeKey: string;
  token: string;
}

/** The probes of the instances on one shared database (store-postgres: the content_probes table). */
export interface ContentProbes {
  /** writes or refreshes this instance's probe (seen now) */
  announce(p: ContentProbe): Promise<void>;
  /** the other instances' probes refreshed within `freshMs` */
  others(instanceId: string, freshMs: number): Promise<ContentProbe[]>;
  withdraw(instanceId: string): Promise<void>;
}
