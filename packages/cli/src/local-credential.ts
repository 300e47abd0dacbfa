import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * How the CLI reaches a gateway that holds the embedded store: the gateway writes this file into DATA_DIR at start
 * (owner-only, mode 0600) and removes it at stop. The token opens the admin API on the loopback listener only.
 */
export const CREDENTIAL_FILE = 'admin-credential.json';

export interface LocalAdminCredential {
  /** the gateway's loopback admin address, http://127.0.0.1:<port> */
  url: string;
  token: string;
  pid: number;
}

export function newLocalAdminToken(): string {
  return randomBytes(32).toString('base64url');
}

export function writeLocalAdminCredential(dataDir: string, credential: LocalAdminCredential): void {
  const file = path.join(dataDir, CREDENTIAL_FILE);
  const draft = `${file}.${process.pid}`;
  // written aside with 0600 from the first byte, then renamed: nobody ever sees a readable or half-written file
  writeFileSync(draft, JSON.stringify(credential), { mode: 0o600 });
  chmodSync(draft, 0o600);
  renameSync(draft, file);
}

export function readLocalAdminCredential(dataDir: string): LocalAdminCredential | null {
  try {
    const c = JSON.parse(readFileSync(path.join(dataDir, CREDENTIAL_FILE), 'utf8')) as Partial<LocalAdminCredential>;
    return typeof c.url === 'string' && typeof c.token === 'string' && typeof c.pid === 'number' ? (c as LocalAdminCredential) : null;
  } catch {
    return null;
  }
}

/** Removes the file when it is this process's (a later gateway on the same directory may have replaced it). */
export function removeLocalAdminCredential(dataDir: string): void {
  if (readLocalAdminCredential(dataDir)?.pid === process.pid) rmSync(path.join(dataDir, CREDENTIAL_FILE), { force: true });
}
