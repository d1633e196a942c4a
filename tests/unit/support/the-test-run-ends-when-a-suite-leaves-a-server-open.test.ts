// `npm test` must end after its summary even if a suite forgot to close something: stop 41's CI
// printed its summary and then waited for a leaked handle until CI's 90 minutes ran out, so nothing
// landed. Runs jest on a suite that leaves a TCP server listening and checks that the run ends,
// names the server and keeps the suite's verdict as its exit code; on one that leaves a child
// process holding jest's output open, which must be killed for a reader of that output to finish
// (stop 42 review LOW-5); and checks that watch mode is left alone (MED-1).
import { spawnSync } from 'node:child_process';
import { endTheRunIfSomethingHoldsItOpen } from '../../support/the-run-ends';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

const LEAVES_A_SERVER_OPEN = (verdict: 'passes' | 'fails') => `import net from 'node:net';
it('leaves a server open', async () => {
  const server = net.createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  expect(${verdict === 'passes' ? 1 : 2}).toBe(1);
});
`;

const LEAVES_A_CHILD_HOLDING_THE_OUTPUT = `import { spawn } from 'node:child_process';
it('leaves a child process running', () => {
  spawn('sleep', ['120'], { stdio: ['ignore', 'inherit', 'inherit'] });
  expect(1).toBe(1);
});
`;

function runJestOn(suite: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'leaky-suite-'));
  try {
    writeFileSync(path.join(dir, 'leaky.test.ts'), suite);
    const run = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), '--roots', dir, '--runInBand'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 40_000,
      // Without a redis-server for this inner run: the global setup skips it when REDIS_URL is set.
      env: { ...process.env, REDIS_URL: 'redis://127.0.0.1:1' },
    });
    // `error` is set when the timeout ended the wait: for the run's own end, or for its output's.
    return { status: run.status, signal: run.signal, waitedOut: run.error !== undefined, output: run.stdout + run.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a test run whose suite leaves a server open', () => {
  it('ends by itself, names the server and keeps a passing verdict', () => {
    const run = runJestOn(LEAVES_A_SERVER_OPEN('passes'));
    expect([run.status, run.signal, run.waitedOut]).toEqual([0, null, false]);
    expect(run.output).toMatch(/held the process:\n {2}Server listening on \{"address":"127\.0\.0\.1"/);
    expect(run.output).toContain('1 passed, 0 failed, 0 skipped');
  });

  it('keeps a failing verdict as its exit code', () => {
    const run = runJestOn(LEAVES_A_SERVER_OPEN('fails'));
    expect([run.status, run.signal, run.waitedOut]).toEqual([1, null, false]);
    expect(run.output).toContain('0 passed, 1 failed, 0 skipped');
  });
});

describe('a test run whose suite leaves a child process holding its output', () => {
  it('ends with the child killed, so a reader of its output finishes too', () => {
    const run = runJestOn(LEAVES_A_CHILD_HOLDING_THE_OUTPUT);
    expect([run.status, run.signal, run.waitedOut]).toEqual([0, null, false]);
    expect(run.output).toMatch(/held the process:\n {2}ChildProcess pid \d+: sleep 120\n/);
  });
});

describe('a test run in watch mode', () => {
  it('is not ended: watch mode keeps the process on purpose', () => {
    const armed = jest.spyOn(global, 'setTimeout');
    endTheRunIfSomethingHoldsItOpen({ watchAll: true });
    endTheRunIfSomethingHoldsItOpen({ watch: true });
    const timers = armed.mock.calls.length;
    armed.mockRestore();
    expect(timers).toBe(0);
  });
});
