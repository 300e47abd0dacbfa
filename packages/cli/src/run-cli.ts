import { isGatewayError } from '@gateway/core';
import { isAdapterCommand, runAdapterCommand } from './adapter-commands';
import { fail, knownCommand, runCommand, USAGE, type AdminApi, type CliIo } from './admin-commands';

/** What the commands need from the gateway's side: the composition root (server/src/cli.ts) provides it. */
export interface CliBackend {
  /** Runs `fn` against the admin API this environment reaches: a running gateway's, or one served on loopback. */
  withAdmin(command: string, fn: (api: AdminApi) => Promise<number>): Promise<number>;
  /** `secrets:reseal`: re-seals the stored secrets; needs the store itself, not the admin API. */
  reseal(io: CliIo): Promise<number>;
  /** The back-end's refusals (a bad config, a locked store): printed as one line, exit 1, instead of a stack. */
  isRefusal(e: unknown): e is Error;
}

/** `gateway <command> [args]`: returns the exit code (2 for a usage error, 1 for a refusal). */
export async function runCommandLine(argv: string[], io: CliIo, backend: CliBackend): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help') {
    io.out(USAGE);
    return command ? 0 : 2;
  }
  if (isAdapterCommand(command)) return runAdapterCommand(command, args, io);
  if (command === 'secrets:reseal') return backend.reseal(io);
  if (!knownCommand(command)) return fail(io, `unknown command "${command}"\n${USAGE}`);
  try {
    return await backend.withAdmin(command, (admin) => runCommand(admin, command, args, io));
  } catch (e) {
    if (isGatewayError(e) || backend.isRefusal(e)) return fail(io, e.message);
    throw e;
  }
}
