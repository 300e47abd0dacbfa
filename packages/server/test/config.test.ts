import { buildConfig, ConfigError, loadConfig } from '../src/config';
import { testConfigFile } from './support/test-gateway';

const problem = (raw: unknown) => {
  try {
    buildConfig('cfg.json', raw);
    return 'accepted';
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
};

describe('config file', () => {
  it('accepts the example of the foundation issue', () => {
    const c = buildConfig('cfg.json', testConfigFile());
    expect(c.catalogue.groupAllows('default', 'sim-chat')).toBe(true);
    expect(c.catalogue.groupAllows('default', 'sim-video-2.5')).toBe(false);
    expect(c.catalogue.groupAllows('vip', 'sim-video-2.5')).toBe(true);
    expect(c.limits.maxActiveTasksPerAccount).toBe(20);
  });

  it('the built-in default serves every simulator model to group default', () => {
    const c = loadConfig(undefined);
    expect(c.catalogue.listForGroup('default').map((m) => m.id)).toEqual([
      'sim-chat',
      'sim-image',
      'sim-video-2.5',
      'sim-video-2.0',
      'sim-video-2.0-fast',
      'sim-video-2.0-mini',
      'sim-embed',
      'sim-speech',
      'sim-transcribe',
      'sim-rerank',
      'sim-moderation',
    ]);
  });

  it("the built-in default routes each SDK's default ids to the simulator model of its kind", () => {
    const c = loadConfig(undefined);
    const target = (id: string) => c.catalogue.get(id)?.id;
    expect(target('text-embedding-3-small')).toBe('sim-embed');
    expect(target('gemini-embedding-001')).toBe('sim-embed');
    expect(target('gemini-2.5-flash')).toBe('sim-chat');
    expect(target('gpt-4o-mini-tts')).toBe('sim-speech');
    expect(target('gpt-4o-mini-transcribe')).toBe('sim-transcribe');
    expect(target('whisper-1')).toBe('sim-transcribe');
    expect(target('rerank-v3.5')).toBe('sim-rerank');
    expect(target('omni-moderation-latest')).toBe('sim-moderation');
  });

  it('a metered kind priced without its own field is refused', () => {
    const file = { ...testConfigFile(), models: [{ id: 'e', kind: 'embedding', provider: 'sim', pricing: { perImage: 1 } }] };
    expect(() => buildConfig('cfg.json', file)).toThrow('without inputPerMillionTokens');
  });

  it.each([
    [{ ...testConfigFile(), providers: [{ id: 'sim', type: 'carrier-pigeon' }] }, 'providers.0.type'],
    [{ ...testConfigFile(), models: [{ id: 'v', kind: 'video', provider: 'sim' }] }, 'a video model needs "family"'],
    [{ ...testConfigFile(), keys: [{ key: 'sk-abcdef', account: 'a', group: 'gold' }] }, 'keys.0.group: unknown group "gold"'],
    [{ ...testConfigFile(), keys: [{ key: 'nope', account: 'a', group: 'default' }] }, 'keys.0.key'],
    [{ ...testConfigFile(), keys: [{ key: 'sk-fifteen-chars15', account: 'a', group: 'default' }] }, 'keys.0.key: too short'],
    [{ ...testConfigFile(), groups: [{ name: 'g', models: ['ghost'] }] }, 'groups.0.models.0: unknown model "ghost"'],
    [{ ...testConfigFile(), surprise: true }, '"surprise"'],
    [{ ...testConfigFile(), limits: { maxActiveTasksPerAccount: 0 } }, 'limits.maxActiveTasksPerAccount'],
  ])('refuses %#', (raw, expected) => {
    const msg = problem(raw);
    expect(msg).toContain('cfg.json');
    expect(msg).toContain(expected);
  });

  it('names an unreadable file', () => {
    expect(() => loadConfig('/nonexistent/gateway.json')).toThrow(/\/nonexistent\/gateway.json.*cannot read/);
  });
  it('circuitBreaker: thresholds checked field by field and together', () => {
    const base = testConfigFile();
    expect(buildConfig('cfg.json', { ...base, circuitBreaker: { consecutiveFailures: 2, coolDownMs: 500 } }).circuitBreaker).toMatchObject({
      consecutiveFailures: 2,
      coolDownMs: 500,
      failureRatio: 0.5,
    });
    expect(problem({ ...base, circuitBreaker: { consecutiveFailures: 0 } })).toMatch(/circuitBreaker.consecutiveFailures/);
    expect(problem({ ...base, circuitBreaker: { failureRatio: 1.5 } })).toMatch(/circuitBreaker.failureRatio/);
    expect(problem({ ...base, circuitBreaker: { coolDown: 5 } })).toMatch(/circuitBreaker/);
    expect(problem({ ...base, circuitBreaker: { windowSize: 5, minimumCalls: 6 } })).toBe(
      'Invalid gateway config cfg.json: circuitBreaker.minimumCalls: must not exceed windowSize (5)',
    );
  });
});
