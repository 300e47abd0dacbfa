import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runGatewayExpectingExit } from '../support/gateway-process';

jest.setTimeout(120000);

/** Every line the process wrote, parsed: one that is not a JSON object fails the test. */
function jsonLines(output: string): Array<Record<string, unknown>> {
  return output
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line: ${l}`);
      }
    });
}

function failure(output: string) {
  const lines = jsonLines(output);
  expect(output).not.toMatch(/\n\s+at /); // no stack trace
  const errors = lines.filter((l) => l.level === 'error');
  expect(errors).toHaveLength(1);
  return errors[0];
}

/**
 * What only a process shows of a failed start: exit code 1, every line JSON, one error line naming the cause and no
 * stack. Each check's cause and message are test/startup-failures.test.ts, in process.
 */
describe('start-up failures: exit code 1 and one JSON line naming the cause', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-startup-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a port in use stops start-up naming the port; every line is JSON, the first start says what it prepares', async () => {
    const holder = net.createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const { port } = holder.address() as net.AddressInfo;
    try {
      const { code, output } = await runGatewayExpectingExit({ PORT: String(port), DATA_DIR: path.join(dir, 'port') });
      expect(code).toBe(1);
      const line = failure(output);
      expect(line).toMatchObject({ cause: 'port_in_use' });
      expect(line!.message).toContain(String(port));
      expect(jsonLines(output).some((l) => String(l.message).includes('creating the embedded store'))).toBe(true);
      expect(output).not.toContain('Gateway listening');
    } finally {
      holder.close();
    }
  });
});
