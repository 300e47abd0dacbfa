import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeContentStoreConformance } from '@gateway/testkit';
import { FileContentStore } from './file-content-store';

describeContentStoreConformance('file', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'content-conf-'));
  const store = new FileContentStore(path.join(dir, 'content'));
  return {
    store,
    backdate: async (key, at) => utimesSync(path.join(store.root, key), at, at),
    done: async () => rmSync(dir, { recursive: true, force: true }),
  };
});
