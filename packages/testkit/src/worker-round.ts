/** One worker round as tests drive it: a pump (housekeeping and claims), then its steps to their end. */
export async function runWorkerOnce(worker: { pump(): Promise<number>; drain(): Promise<void> }): Promise<number> {
  const claimed = await worker.pump();
  await worker.drain();
  return claimed;
}
