import { importEsm } from './esm-import';
import Ajv, { type ValidateFunction } from 'ajv';
import { createRequire } from 'node:module';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { contractVersionProblem, type AdapterDescriptor, type AdapterPorts } from './adapter-contract';
import { guardAdapterPorts } from './adapter-guard';
import { ADAPTER_KIT } from './adapter-kit';
import type { ProviderEntry, ProviderEnvironment, ProviderPorts } from './provider-descriptor';
import { redactingPorts } from './redacting-ports';
import type { Redact } from './secret-redactor';

/** A config entry naming an outside module (the server's ProviderConfig fits). */
export interface ModuleEntry extends ProviderEntry {
  id: string;
  module?: string;
}

/** How a refusal reaches the operator: the server makes it a config error naming the file, the field and the problem. */
export type ModuleRefusal = (field: string, problem: string) => Error;

/**
 * Adapters loaded from outside the repository: a `providers[]` entry with `module` (a path, absolute or relative to
 * the config file's directory, or an npm package name) instead of `type`. The module's default export is an
 * AdapterDescriptor (adapter-contract.ts). Loading is asynchronous (`import()`), so the registry loads
 * every named module before it builds (start-up, config reload, admin validation); building stays synchronous.
 */

interface Loaded {
  descriptor: AdapterDescriptor;
  validateOptions: ValidateFunction;
}

export class AdapterModules {
  private readonly loaded = new Map<string, Loaded>();
  private readonly problems = new Map<string, string>();
  private readonly ajv = new Ajv({ allErrors: false, strict: false });

  /**
   * baseDir: where relative module paths start (the config file's directory). allowed: the modules this instance's
   * config file names; a catalogue change (admin API, another instance's import) may name only those, so the admin
   * API can never make the gateway run code from a path the operator did not put in the file. Absent: any (the kit).
   */
  constructor(
    private readonly baseDir: string = process.cwd(),
    private readonly allowed?: ReadonlySet<string>,
  ) {}

  /** What `import()` is given for a spec: a file URL for paths, the name itself for packages. */
  private target(spec: string): string {
    if (spec.startsWith('.') || isAbsolute(spec)) return pathToFileURL(resolve(this.baseDir, spec)).href;
    try {
      return pathToFileURL(createRequire(join(this.baseDir, 'noop.js')).resolve(spec)).href;
    } catch {
      return spec; // an ESM-only package without a require condition: Node resolves the name itself
    }
  }

  /** Imports every module the file names (each once per process); a failure is remembered and reported by build. */
  async load(file: { providers: readonly ModuleEntry[] }): Promise<void> {
    for (const p of file.providers) {
      if (p.module === undefined || this.loaded.has(p.module)) continue;
      if (this.allowed && !this.allowed.has(p.module)) {
        this.problems.set(p.module, "not named in this instance's config file (GATEWAY_CONFIG); add it there and restart");
        continue;
      }
      try {
        const mod = await importEsm(this.target(p.module));
        const d = (mod.default ?? mod) as Partial<AdapterDescriptor> | undefined;
        if (!d || typeof d !== 'object' || typeof d.create !== 'function') {
          this.problems.set(
            p.module,
            'the module\'s default export is not an adapter descriptor (it needs "contractVersion", "optionsSchema" and "create")',
          );
          continue;
        }
        const version = contractVersionProblem(d.contractVersion);
        if (version) {
          this.problems.set(p.module, version);
          continue;
        }
        const schema = d.optionsSchema;
        if (!schema || typeof schema !== 'object' || schema.type !== 'object') {
          this.problems.set(p.module, 'the module\'s optionsSchema must be a JSON schema of "type": "object"');
          continue;
        }
        this.loaded.set(p.module, { descriptor: d as AdapterDescriptor, validateOptions: this.ajv.compile(schema) });
        this.problems.delete(p.module);
      } catch (e) {
        // one line: the loader's own message, never the module's source
        this.problems.set(p.module, `cannot load the module (${String((e as Error).message ?? e).split('\n')[0]})`);
      }
    }
  }

  /** The name traces and logs give the upstream. */
  nameOf(p: ModuleEntry): string {
    return this.loaded.get(p.module!)?.descriptor.name ?? basename(p.module!).replace(/\.[cm]?js$/, '');
  }

  /** Checks the entry against its module and builds its ports, guarded and redacted like a built-in's. */
  build(refusal: ModuleRefusal, p: ModuleEntry, i: number, env: ProviderEnvironment, redact: Redact): ProviderPorts {
    const at = `providers.${i}`;
    // every refusal names the module and its entry, so the line a failed start writes says which adapter it was
    const refuse = (field: string, problem: string) =>
      refusal(field, `module ${JSON.stringify(p.module)} of provider ${JSON.stringify(p.id)}: ${problem}`);
    const problem = this.problems.get(p.module!);
    if (problem) throw refuse(`${at}.module`, problem);
    const loaded = this.loaded.get(p.module!);
    if (!loaded) throw refuse(`${at}.module`, 'not loaded');
    const options = p.options ?? {};
    if (!loaded.validateOptions(options)) {
      const e = loaded.validateOptions.errors![0]!;
      const path = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
      const extra = e.keyword === 'additionalProperties' ? ` "${(e.params as { additionalProperty: string }).additionalProperty}"` : '';
      throw refuse(`${at}.options${path ? `.${path}` : ''}`, `${e.message ?? 'invalid'}${extra}`);
    }
    let ports: AdapterPorts;
    try {
      ports = loaded.descriptor.create({ ...p, options }, { ...env, kit: ADAPTER_KIT });
    } catch (e) {
      throw refuse(at, `the adapter refused its entry: ${redact(String((e as Error)?.message ?? e).split('\n')[0]!)}`);
    }
    if (!ports || typeof ports !== 'object' || typeof ports.close !== 'function' || typeof ports.drain !== 'function')
      throw refuse(at, "the adapter's create() must return its ports with close() and drain()");
    return redactingPorts(guardAdapterPorts(ports, p.timeouts), redact);
  }
}
