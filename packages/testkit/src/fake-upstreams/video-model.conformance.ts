/**
 * The suite every video adapter runs (the simulator, Ark, Veo, Sora, Kling, MiniMax, DashScope,
 * Runway), each against its fake upstream: what the worker relies on from any VideoModelPort.
 */
import { GatewayError, type OperationRef, type VideoArtifact, type VideoModelPort, type VideoRequest } from '@gateway/core';
import { pollUntilSettled, readStream, videoRequest } from './video-port-helpers';

/** The artifact's shape fields: what the delivered-billing settles on. */
export type VideoShapeField = 'width' | 'height' | 'durationSeconds' | 'fps';
const SHAPE_FIELDS: readonly VideoShapeField[] = ['width', 'height', 'durationSeconds', 'fps'];

/** The shape fields an artifact states (present and not undefined), in SHAPE_FIELDS order. */
function statedFields(a: VideoArtifact): VideoShapeField[] {
  return SHAPE_FIELDS.filter((f) => a[f] !== undefined);
}

export interface VideoConformanceTarget {
  /** the adapter with working credentials */
  model: VideoModelPort;
  /** the same adapter with credentials the upstream refuses; absent where there are none (the simulator) */
  badCredentialsModel?: VideoModelPort;
  /** moves the upstream's (and adapter's) clock, so a task walks through its states without waiting */
  advance(ms: number): void;
  /** makes the next status read answer "rate limited" in the upstream's own shape; absent where there is no such answer */
  rateLimitNextPoll?(retryAfterSeconds: number): void;
  /** true when the upstream's rate-limit answer carries a Retry-After the adapter must pass on */
  rateLimitHasRetryAfter?: boolean;
  /** the prompt that makes the upstream fail a task, and the code the adapter reports for it */
  fail: { prompt: string; code: string };
  /** the prompt that keeps a task queued upstream (for cancel); needed when the adapter cancels */
  holdPrompt?: string;
  /** true when the upstream reports a queue before running (the adapter then says `running: false` first) */
  reportsQueue: boolean;
  /** a request this upstream can render (defaults: 720p, 16:9, 4 s) */
  request?: Partial<VideoRequest> & { upstreamModel?: string };
  /**
   * Which shape fields the upstream's success answer states, per its API reference (the fake states the same): the
   * adapter must state exactly these and leave the rest out, so the worker measures the file instead of billing the
   * request. `'rendered'`: the adapter renders the file itself and knows all four (the simulator). The fakes answer a
   * prompt marked `[unstated]` with no shape and one marked `[delivered:N]` with N seconds where they state a length.
   */
  statedShape: readonly VideoShapeField[] | 'rendered';
  /** a well-formed operation reference the upstream does not know */
  unknownRef: OperationRef;
  /** strings that must never appear in an error: keys, secrets */
  secrets: string[];
  close(): Promise<void>;
}

/** Where an error may leak: its message and every own field. */
function leaks(e: unknown, secrets: string[]): string[] {
  const text = e instanceof Error ? `${e.message}\n${e.stack ?? ''}\n${JSON.stringify({ ...e })}` : JSON.stringify(e);
  return secrets.filter((s) => s && text.includes(s));
}

export function describeVideoModelConformance(name: string, setup: () => Promise<VideoConformanceTarget>): void {
  describe(`VideoModelPort conformance: ${name}`, () => {
    let t: VideoConformanceTarget;
    const errors: unknown[] = [];
    const ctx = { taskId: 'conformance1' };
    const req = (over: Partial<VideoRequest> = {}) => videoRequest({ ...t.request, ...over });
    const clock = { advance: (ms: number) => t.advance(ms) };
    /** the rejection of p, recorded for the secrets check */
    const rejection = async (p: Promise<unknown>): Promise<GatewayError> => {
      try {
        await p;
      } catch (e) {
        errors.push(e);
        if (e instanceof GatewayError) return e;
        throw new Error(`expected a GatewayError, got ${String(e)}`);
      }
      throw new Error('expected a failure');
    };

    beforeAll(async () => {
      t = await setup();
    });
    afterAll(async () => t?.close());

    it('start → pending (queued, then running) → succeeded with a downloadable MP4 of the reported shape', async () => {
      const ref = await t.model.start(req({ prompt: 'conformance ok' }), ctx);
      expect(typeof ref).toBe('string');
      expect(ref.length).toBeGreaterThan(0);
      const done = await pollUntilSettled(t.model, ref, { clock, everyMs: 25 });
      expect(done.pendingSeen.length).toBeGreaterThan(0);
      if (t.reportsQueue) expect(done.pendingSeen[0]).toBe(false);
      expect(done.pendingSeen).toContain(true);
      if (done.state !== 'succeeded') throw new Error(`expected success, got ${JSON.stringify(done)}`);
      const a = done.artifact;
      const stated = t.statedShape === 'rendered' ? SHAPE_FIELDS : SHAPE_FIELDS.filter((f) => t.statedShape.includes(f));
      expect(statedFields(a)).toEqual(stated);
      for (const f of stated) expect(a[f]).toBeGreaterThan(0);
      const bytes = await readStream(await a.open());
      // an MP4 starts with its `ftyp` box
      expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
      await a.dispose?.();
    });

    it("an answer that states no shape: the artifact states none either (never the request's values)", async () => {
      if (t.statedShape === 'rendered') return; // the adapter made the file: its own parameters are the delivered ones
      const ref = await t.model.start(req({ prompt: 'conformance unstated [unstated]' }), ctx);
      const done = await pollUntilSettled(t.model, ref, { clock, everyMs: 25 });
      if (done.state !== 'succeeded') throw new Error(`expected success, got ${JSON.stringify(done)}`);
      expect(statedFields(done.artifact)).toEqual([]);
      await done.artifact.dispose?.();
    });

    it('a shorter delivery the answer reports is carried as delivered, where the upstream states a length', async () => {
      if (t.statedShape === 'rendered' || !t.statedShape.includes('durationSeconds')) return;
      const ref = await t.model.start(req({ prompt: 'conformance short [delivered:3]' }), ctx);
      const done = await pollUntilSettled(t.model, ref, { clock, everyMs: 25 });
      if (done.state !== 'succeeded') throw new Error(`expected success, got ${JSON.stringify(done)}`);
      expect(done.artifact.durationSeconds).toBe(3);
      expect(req().durationSeconds).toBeGreaterThan(3);
      await done.artifact.dispose?.();
    });

    it('a task the upstream fails ends failed with the mapped code and a message', async () => {
      const ref = await t.model.start(req({ prompt: t.fail.prompt }), ctx);
      const done = await pollUntilSettled(t.model, ref, { clock, everyMs: 25 });
      expect(done).toMatchObject({ state: 'failed', code: t.fail.code });
      if (done.state === 'failed') expect(done.message.length).toBeGreaterThan(0);
    });

    it('refused credentials are upstream_auth_failed, not retryable, and name no secret', async () => {
      if (!t.badCredentialsModel) return; // the simulator has no credentials
      const e = await rejection(t.badCredentialsModel.start(req({ prompt: 'conformance auth' }), ctx));
      expect(e).toMatchObject({ reason: 'upstream_error', code: 'upstream_auth_failed', retryable: false });
      const ok = await t.model.start(req({ prompt: 'conformance auth ok [hold]' }), ctx);
      const e2 = await rejection(t.badCredentialsModel.status(ok, ctx));
      expect(e2).toMatchObject({ code: 'upstream_auth_failed', retryable: false });
    });

    it("the upstream's rate limit is rate_limited and retryable (with its Retry-After), and the next read works", async () => {
      if (!t.rateLimitNextPoll) return;
      const ref = await t.model.start(req({ prompt: 'conformance rate [hold]' }), ctx);
      t.rateLimitNextPoll(7);
      const e = await rejection(t.model.status(ref, ctx));
      expect(e).toMatchObject({ reason: 'rate_limited', retryable: true });
      if (t.rateLimitHasRetryAfter) expect(e.retryAfterSeconds).toBe(7);
      expect(await t.model.status(ref, ctx)).toMatchObject({ state: 'pending' });
    });

    it('cancel, where the adapter offers it, stops the task: it never succeeds afterwards', async () => {
      if (!t.model.cancel) return;
      if (!t.holdPrompt) throw new Error('an adapter that cancels needs holdPrompt in its conformance target');
      const ref = await t.model.start(req({ prompt: `conformance cancel ${t.holdPrompt}` }), ctx);
      await t.model.cancel(ref);
      // Afterwards the upstream reports the task failed/cancelled, or no longer knows it (not retryable).
      const after = await t.model.status(ref, ctx).catch((e: unknown) => {
        errors.push(e);
        return e;
      });
      if (after instanceof GatewayError) expect(after.retryable).toBe(false);
      else expect(after).toMatchObject({ state: 'failed' });
    });

    it('an operation the upstream does not know, or cannot be one, is a non-retryable not-found', async () => {
      for (const ref of [t.unknownRef, '../../../etc/passwd', '']) {
        const e = await rejection(t.model.status(ref, ctx));
        expect(e.retryable).toBe(false);
        expect(e.code).toMatch(/not_found$/);
      }
    });

    it('no error seen above carries a key or secret of the upstream', () => {
      expect(errors.length).toBeGreaterThan(0);
      for (const e of errors) expect(leaks(e, t.secrets)).toEqual([]);
    });
  });
}
