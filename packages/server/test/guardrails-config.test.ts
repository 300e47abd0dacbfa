/**
 * The config file's guardrails (docs/guardrails.md): every problem the schema or the semantic checks find stops
 * start-up with one line naming the field.
 */
import { buildConfig, ConfigError, type GatewayConfigFile } from '../src/config';
import { testConfigFile } from './support/test-gateway';

const withGuardrails = (guardrails: unknown[], groups?: GatewayConfigFile['groups'], keys?: GatewayConfigFile['keys']) => {
  const file = testConfigFile();
  return { ...file, guardrails, ...(groups ? { groups } : {}), ...(keys ? { keys } : {}) } as GatewayConfigFile;
};

function problem(file: GatewayConfigFile, env: Record<string, string> = {}): string {
  try {
    buildConfig('g.json', file, env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('config accepted');
}

describe('guardrails in the config file', () => {
  it('accepts every type and attaches them to groups and keys', () => {
    const file = withGuardrails(
      [
        { id: 'a', type: 'regex', patterns: ['(?i)secret\\s+plan'], on: 'both' },
        { id: 'b', type: 'pii', mode: 'mask', entities: ['email', 'card'] },
        { id: 'c', type: 'max_input', maxChars: 1000, mode: 'log' },
        { id: 'd', type: 'moderation', on: 'output' },
        { id: 'e', type: 'webhook', url: 'https://guard.example.com/check', timeoutMs: 1500, failOpen: true },
      ],
      [
        { name: 'default', models: ['*'], guardrails: ['a', 'b'] },
        { name: 'vip', models: ['*'] },
      ],
    );
    file.keys = [{ key: 'sk-alpha-test-key-0001', account: 'alpha', group: 'default', guardrails: ['e'] }];
    const config = buildConfig('g.json', file);
    expect(config.guardrails.resolve({ group: 'default', guardrails: ['e', 'a'] }).map((g) => g.id)).toEqual(['a', 'b', 'e']);
  });

  it.each([
    ['an unknown type', [{ id: 'x', type: 'nope' }], 'guardrails.0.type'],
    ['a misspelt option', [{ id: 'x', type: 'pii', entitys: ['email'] }], 'guardrails.0.entitys'],
    ['a regex without patterns', [{ id: 'x', type: 'regex' }], 'patterns'],
    [
      'a duplicate id',
      [
        { id: 'x', type: 'pii' },
        { id: 'x', type: 'pii' },
      ],
      'guardrails.1.id: duplicate guardrail id "x"',
    ],
    [
      'mask on max_input',
      [{ id: 'x', type: 'max_input', maxChars: 5, mode: 'mask' }],
      'guardrails.0.mode: a max_input guardrail cannot mask',
    ],
    ['a max_input without a limit', [{ id: 'x', type: 'max_input' }], 'guardrails.0.maxChars'],
    ['a pattern RE2 refuses', [{ id: 'x', type: 'regex', patterns: ['(a)\\1'] }], 'guardrails.0.patterns'],
    ['a webhook on a private address', [{ id: 'x', type: 'webhook', url: 'https://10.0.0.1/check' }], 'guardrails.0.url'],
    ['a webhook over http', [{ id: 'x', type: 'webhook', url: 'http://guard.example.com/check' }], 'guardrails.0.url'],
  ])('refuses %s', (_name, guardrails, expected) => {
    expect(problem(withGuardrails(guardrails))).toContain(expected);
  });

  it('refuses a group or a key naming an unknown guardrail', () => {
    const groups = [
      { name: 'default', models: ['*'], guardrails: ['ghost'] },
      { name: 'vip', models: ['*'] },
    ];
    expect(problem(withGuardrails([], groups))).toContain('groups.0.guardrails.0: unknown guardrail "ghost"');
    const keys = [{ key: 'sk-alpha-test-key-0001', account: 'alpha', group: 'default', guardrails: ['ghost'] }];
    expect(problem(withGuardrails([{ id: 'x', type: 'pii' }], undefined, keys))).toContain(
      'keys.0.guardrails.0: unknown guardrail "ghost"',
    );
  });

  it('a webhook on a host WEBHOOK_ALLOWED_HOSTS allows is accepted, over http too', () => {
    const file = withGuardrails([{ id: 'x', type: 'webhook', url: 'http://127.0.0.1:8099/check' }]);
    expect(problem(file)).toContain('guardrails.0.url');
    expect(() => buildConfig('g.json', file, { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:8099' })).not.toThrow();
  });
});
