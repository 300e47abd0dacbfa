import { migratedMemoryImage } from '../packages/store-postgres/test/memory-image';

// Before a lane's workers start: the dump its in-memory stores load (startTestGateway, the store suites), made here
// once (a minute on a loaded 2-core machine the first time, then found on disk) rather than by two workers at once
// inside a test's timeout.
export default async function makeMemoryImage(): Promise<void> {
  await migratedMemoryImage();
}
