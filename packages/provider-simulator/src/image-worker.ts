/** A worker thread of the image pool (image-pool.ts): makes pictures off the event loop. */
import { parentPort } from 'node:worker_threads';
import { ImageWorkError, makePicture, type PictureJob } from './image-pixels';

parentPort?.on('message', ({ id, job }: { id: number; job: PictureJob }) => {
  try {
    const result = makePicture(job);
    parentPort!.postMessage(
      { id, result },
      result.encoded.map((b) => b.buffer as ArrayBuffer),
    );
  } catch (e) {
    const refusal = e instanceof ImageWorkError ? { code: e.code, message: e.message, param: e.param } : undefined;
    parentPort!.postMessage({ id, refusal, failure: refusal ? undefined : String((e as Error)?.message ?? e) });
  }
});
