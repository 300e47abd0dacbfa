import { InMemoryContentStore } from '@gateway/testkit';
import type { ContentProbe, ContentProbes } from '../ports/content-probes.port';
import { ContentSharingCheck } from './content-sharing-check';

/** The content_probes table of one shared database, in memory; freshness is not modelled (every probe is fresh). */
class MemoryProbes implements ContentProbes {
  readonly rows = new Map<string, ContentProbe>();
  async announce(p: ContentProbe) {
    this.rows.set(p.instanceId, p);
  }
  async others(instanceId: string) {
    return [...this.rows.values()].filter((p) => p.instanceId !== instanceId);
  }
  async withdraw(instanceId: string) {
    this.rows.delete(instanceId);
  }
}

function logged() {
  const lines: Array<[string, string]> = [];
  return { lines, logger: { info: (m: string) => void lines.push(['info', m]), error: (m: string) => void lines.push(['error', m]) } };
}

const check = (probes: ContentProbes, content: InMemoryContentStore, instanceId: string, logger = logged().logger) =>
  new ContentSharingCheck({ probes, content, location: `mem:${instanceId}`, instanceId, logger });

describe('ContentSharingCheck', () => {
  it('is ok when every instance reads the others’ probes through its own store, and logs the verdict once', async () => {
    const probes = new MemoryProbes();
    const shared = new InMemoryContentStore();
    const { lines, logger } = logged();
    const a = check(probes, shared, 'a', logger);
    await check(probes, shared, 'b').run();
    expect(await a.run()).toBe('ok');
    expect(await a.run()).toBe('ok');
    expect(a.status).toBe('ok');
    expect(lines).toEqual([['info', 'content store shared with every instance']]);
  });

  it('names the instance it cannot read when the stores are not shared, and says how to fix it', async () => {
    const probes = new MemoryProbes();
    const { lines, logger } = logged();
    await check(probes, new InMemoryContentStore(), 'b').run();
    const a = check(probes, new InMemoryContentStore(), 'a', logger);
    const status = await a.run();
    expect(status).toMatch(/^not_shared: cannot read the content of b \(content at mem:b\); this instance keeps it at mem:a\. /);
    expect(a.status).toBe(status);
    expect(lines).toEqual([['error', 'content store is not shared by the instances on this database']]);
  });

  it('turns a store failure into the status instead of throwing', async () => {
    const failing = new MemoryProbes();
    failing.announce = () => Promise.reject(new Error('connection refused'));
    expect(await check(failing, new InMemoryContentStore(), 'a').run()).toBe('unavailable: connection refused');
  });

  it('withdraws its probe and deletes its object on stop', async () => {
    const probes = new MemoryProbes();
    const content = new InMemoryContentStore();
    const a = check(probes, content, 'a');
    await a.run();
    expect(probes.rows.has('a')).toBe(true);
    expect(await content.stat('probes/a.txt')).not.toBeNull();
    await a.stop();
    expect(probes.rows.has('a')).toBe(false);
    expect(await content.stat('probes/a.txt')).toBeNull();
  });
});
