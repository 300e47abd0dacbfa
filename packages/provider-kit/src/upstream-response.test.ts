import { createHook } from 'node:async_hooks';
import { PassThrough } from 'node:stream';
import { CallGuard } from './call-guard';
import { UpstreamResponse } from './upstream-response';
import { resolveTimeouts } from './upstream-timeouts';

const answer = (stream: PassThrough) => new UpstreamResponse(200, {}, undefined, stream, new CallGuard(resolveTimeouts(undefined)));

it('reads a body of many chunks with a bounded number of promises, not several per chunk (issue 40)', async () => {
  const stream = new PassThrough();
  let promises = 0;
  const hook = createHook({ init: (_id, type) => void (type === 'PROMISE' && promises++) }).enable();
  const read = answer(stream).bytes();
  for (let i = 0; i < 100; i++) stream.write(`chunk ${i};`);
  stream.end();
  const body = await read;
  hook.disable();
  expect(body.toString()).toBe(Array.from({ length: 100 }, (_, i) => `chunk ${i};`).join(''));
  expect(promises).toBeLessThan(10);
});

it('refuses a body past its limit and drops the socket; a body cut before its end is an upstream failure', async () => {
  const big = new PassThrough();
  const tooLarge = answer(big).bytes(10, 'an answer');
  big.write('0123456789ab');
  await expect(tooLarge).rejects.toMatchObject({ message: expect.stringContaining('an answer larger than 10 bytes') });
  expect(big.destroyed).toBe(true);

  const cut = new PassThrough();
  const reading = answer(cut).bytes();
  cut.write('{"partial":');
  cut.destroy();
  await expect(reading).rejects.toMatchObject({ code: 'upstream_unreachable' });
});

it('a body is read once', async () => {
  const stream = new PassThrough();
  const r = answer(stream);
  const first = r.bytes();
  await expect(r.bytes()).rejects.toThrow('already consumed');
  stream.end('x');
  expect((await first).toString()).toBe('x');
});
