import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { runAdapterKit } from '@gateway/provider-kit/testing';
import { ADAPTER_USAGE } from './adapter-usage';

/** The package templates: beside src/ under tsx; seen from the bundle in packages/server/dist, in this package. */
const TEMPLATES_FROM_SRC = join(__dirname, '..', 'adapter-templates');
const TEMPLATES_FROM_BUNDLE = join(__dirname, '..', '..', 'cli', 'adapter-templates');

export const isAdapterCommand = (command: string) => command === 'adapter:new' || command === 'adapter:test';

/** `adapter:new` and `adapter:test`: they need no store, no config and no running gateway. */
export async function runAdapterCommand(
  command: string,
  args: string[],
  io: { out(s: string): void; err(s: string): void },
): Promise<number> {
  const dir = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--kind');
  if (!dir) return (io.err(`usage:\n${ADAPTER_USAGE}`), 2);
  if (command === 'adapter:test')
    return runAdapterKit(
      dir,
      (line) => io.out(line),
      // worded as the gateway's start-up refuses the same adapter in its config file
      (field, problem) => new Error(`Invalid gateway config adapter:test: ${field || '(root)'}: ${problem}`),
    );
  const kind = args[args.indexOf('--kind') + 1];
  if (!args.includes('--kind') || (kind !== 'text' && kind !== 'video')) return (io.err('adapter:new needs --kind text|video'), 2);
  const templates = join(existsSync(TEMPLATES_FROM_SRC) ? TEMPLATES_FROM_SRC : TEMPLATES_FROM_BUNDLE, kind);
  if (!existsSync(templates)) return (io.err(`no ${kind} template in this build (text only for now)`), 2);
  const target = resolve(dir);
  if (existsSync(target) && readdirSync(target).length > 0) return (io.err(`${target} is not empty`), 2);
  mkdirSync(target, { recursive: true });
  cpSync(templates, target, { recursive: true });
  // kept under another name in the repository, so no tool takes the template for a package of this one
  renameSync(join(target, 'package.template.json'), join(target, 'package.json'));
  const name = basename(target)
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-');
  for (const file of ['package.json', 'README.md'])
    writeFileSync(join(target, file), readFileSync(join(target, file), 'utf8').replace(/__NAME__/g, name));
  io.out(`scaffolded a ${kind} adapter in ${target}; next: npx gateway adapter:test ${dir}`);
  return 0;
}
