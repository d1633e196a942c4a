// `npm test` must end after its summary even if a suite forgot to close something: stop 41's CI
// printed its summary and then waited for a leaked handle until CI's 90 minutes ran out, so nothing
// landed. Runs jest on a suite that leaves a TCP server listening and checks that the run ends,
// names the server and keeps the suite's verdict as its exit code.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

function runJestOnASuiteThatLeavesAServerOpen(verdict: 'passes' | 'fails') {
  const dir = mkdtempSync(path.join(tmpdir(), 'leaky-suite-'));
  try {
    writeFileSync(
      path.join(dir, 'leaves-a-server-open.test.ts'),
      `import net from 'node:net';
it('leaves a server open', async () => {
  const server = net.createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  expect(${verdict === 'passes' ? 1 : 2}).toBe(1);
});
`,
    );
    const run = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), '--roots', dir, '--runInBand'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      // Without a redis-server for this inner run: the global setup skips it when REDIS_URL is set.
      env: { ...process.env, REDIS_URL: 'redis://127.0.0.1:1' },
    });
    return { status: run.status, signal: run.signal, output: run.stdout + run.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a test run whose suite leaves a server open', () => {
  it('ends by itself, names the server and keeps a passing verdict', () => {
    const run = runJestOnASuiteThatLeavesAServerOpen('passes');
    expect([run.status, run.signal]).toEqual([0, null]);
    expect(run.output).toMatch(/held the process:\n {2}Server listening on \{"address":"127\.0\.0\.1"/);
    expect(run.output).toContain('1 passed, 0 failed, 0 skipped');
  });

  it('keeps a failing verdict as its exit code', () => {
    const run = runJestOnASuiteThatLeavesAServerOpen('fails');
    expect([run.status, run.signal]).toEqual([1, null]);
    expect(run.output).toContain('0 passed, 1 failed, 0 skipped');
  });
});
