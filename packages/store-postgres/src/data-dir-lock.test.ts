import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acquireDataDirLock, dataDirHolder, DataDirLockedError, LOCK_FILE } from './data-dir-lock';
import { openDatabase } from './db';

describe('DATA_DIR lock', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'gw-lock-unit-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('records the holder and refuses a second holder, naming the directory and the pid', () => {
    const lock = acquireDataDirLock(dir);
    expect(readFileSync(path.join(dir, LOCK_FILE), 'utf8')).toBe(String(process.pid));
    expect(dataDirHolder(dir)).toBe(process.pid);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    expect(() => acquireDataDirLock(dir)).toThrow(new RegExp(`${dir}.*process ${process.pid}`));
    lock.release();
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    expect(dataDirHolder(dir)).toBeNull();
  });

  it('takes over a lock whose process is gone', () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(path.join(dir, LOCK_FILE), String(gone));
    expect(dataDirHolder(dir)).toBeNull();
    const lock = acquireDataDirLock(dir);
    expect(dataDirHolder(dir)).toBe(process.pid);
    lock.release();
  });

  it('openDatabase holds the lock while open and releases it on close', async () => {
    const db = await openDatabase({ dataDir: dir });
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DataDirLockedError);
    await db.close();
    const again = await openDatabase({ dataDir: dir });
    await again.close();
  }, 60_000);
});
