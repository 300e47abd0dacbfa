import type { FakeControl } from '@gateway/provider-kit/testing';
import type { FakeBehaviour, FakeReply } from './fake-script';
import type { FakeUpstream } from './fake-upstream-server';

/** The next answer, as the kit scripts it (POST /__fake/next; docs/providers/writing-an-adapter.md). */
interface KitScript {
  status?: number;
  message?: string;
  retryAfter?: number;
  reply?: FakeReply;
  malformed?: boolean;
  hang?: 'before' | 'after-first';
}

function behaviourOf(s: KitScript): FakeBehaviour {
  const b: FakeBehaviour = { reply: s.reply, malformed: s.malformed };
  if (s.status) {
    b.status = s.status;
    b.errorMessage = s.message;
    if (s.retryAfter !== undefined) b.headers = { 'retry-after': String(s.retryAfter) };
  }
  if (s.hang === 'before') b.hang = true;
  if (s.hang === 'after-first') b.stallAfterFirstText = true;
  return b;
}

/** An in-process fake upstream behind the kit's control routes, so the kit's cases drive it as they drive a package's fake. */
export function controlOf(fake: FakeUpstream): FakeControl {
  return {
    async control(path, body) {
      if (path === '/__fake/next') return fake.enqueue(behaviourOf((body ?? {}) as KitScript));
      if (path === '/__fake/log')
        return { requests: fake.requests.map((r) => ({ path: r.path, body: r.body })), closedEarly: fake.closedEarly };
      if (path === '/__fake/reset') return fake.reset();
      throw new Error(`the fake has no control route ${path}`);
    },
  };
}
