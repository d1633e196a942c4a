// Jest's global teardown ends the process if something a suite left open would keep it alive.
// On 2 cores jest runs the suites in its own process, so one socket, server, child process or
// timer a suite forgot keeps `npm test` waiting for ever after its summary: stop 41's CI printed
// "2235 passed, 0 failed" and then hung until CI's 90 minutes ran out. Here the process gets a
// grace period to end by itself; if it has not, it lists what held it open (so the log names the
// leak) and exits. The exit code stays jest's own: jest sets it in its 'exit' listener.
const GRACE_MS = 10_000;

type Handle = {
  constructor?: { name?: string };
  localPort?: number;
  remoteAddress?: string;
  remotePort?: number;
  pid?: number;
  spawnargs?: string[];
  address?: () => unknown;
};

function describeHandle(handle: Handle): string {
  const kind = handle.constructor?.name ?? 'unknown';
  if (handle.pid !== undefined) return `${kind} pid ${handle.pid}: ${(handle.spawnargs ?? []).join(' ')}`;
  if (handle.remotePort !== undefined) return `${kind} ${handle.localPort} -> ${handle.remoteAddress}:${handle.remotePort}`;
  if (typeof handle.address === 'function') {
    try {
      return `${kind} listening on ${JSON.stringify(handle.address())}`;
    } catch {
      return kind;
    }
  }
  return kind;
}

function whatKeepsTheProcessAlive(): string[] {
  const handles = (process as unknown as { _getActiveHandles(): Handle[] })._getActiveHandles();
  const standardStreams: unknown[] = [process.stdin, process.stdout, process.stderr];
  const described = handles.filter((handle) => !standardStreams.includes(handle)).map(describeHandle);
  const timers = process.getActiveResourcesInfo().filter((type) => type === 'Timeout' || type === 'Immediate');
  return timers.length > 0 ? [...described, `${timers.length} timer(s)`] : described;
}

export function endTheRunIfSomethingHoldsItOpen(): void {
  setTimeout(() => {
    const held = whatKeepsTheProcessAlive();
    process.stderr.write(
      `\nThe test run had ended ${GRACE_MS / 1000} s ago and something a suite left open held the process:\n` +
        held.map((line) => `  ${line}\n`).join('') +
        'Ending it here; find the suite that opened it.\n',
    );
    process.exit();
  }, GRACE_MS).unref();
}
