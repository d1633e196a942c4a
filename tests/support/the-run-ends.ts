// Jest's global teardown ends the process if something a suite left open would keep it alive.
// On 2 cores jest runs the suites in its own process, so one socket, server, child process or
// timer a suite forgot keeps `npm test` waiting for ever after its summary: stop 41's CI printed
// "2235 passed, 0 failed" and then hung until CI's 90 minutes ran out. Here the process gets a
// grace period to end by itself; if it has not, it lists what held it open (so the log names the
// leak), kills the child processes among them (one holding the output pipe open would keep CI
// waiting after jest ended) and exits. The exit code stays jest's own: jest sets it in its 'exit'
// listener. Not in watch mode, where the process is meant to stay.
const GRACE_MS = 10_000;

type Handle = {
  constructor?: { name?: string };
  localPort?: number;
  remoteAddress?: string;
  remotePort?: number;
  pid?: number;
  spawnargs?: string[];
  kill?: () => void;
  address?: () => unknown;
};

const isChildProcess = (handle: Handle): boolean => handle.pid !== undefined && typeof handle.kill === 'function';

function describeHandle(handle: Handle): string {
  const kind = handle.constructor?.name ?? 'unknown';
  if (isChildProcess(handle)) return `${kind} pid ${handle.pid}: ${(handle.spawnargs ?? []).join(' ')}`;
  if (handle.remotePort !== undefined) return `${kind} ${handle.localPort} -> ${handle.remoteAddress}:${handle.remotePort}`;
  if (typeof handle.address === 'function') {
    const address = handle.address() as { port?: number } | null;
    if (address?.port !== undefined) return `${kind} listening on ${JSON.stringify(address)}`;
  }
  return kind;
}

/** The live handles but the standard streams, and the other kinds of resource (timers, DNS lookups, file requests) by count. */
function whatKeepsTheProcessAlive(): { handles: Handle[]; others: string[] } {
  const standardStreams: unknown[] = [process.stdin, process.stdout, process.stderr];
  const handles = (process as unknown as { _getActiveHandles(): Handle[] })._getActiveHandles().filter((handle) => !standardStreams.includes(handle));
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo()) {
    if (type === 'TTYWrap' || type === 'PipeWrap' || type === 'TCPSocketWrap' || type === 'TCPServerWrap' || type === 'ProcessWrap') continue;
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  return { handles, others: [...counts].map(([type, count]) => `${count} ${type}`) };
}

export function endTheRunIfSomethingHoldsItOpen(config: { watch?: boolean; watchAll?: boolean }): void {
  if (config.watch || config.watchAll) return;
  setTimeout(() => {
    const { handles, others } = whatKeepsTheProcessAlive();
    process.stderr.write(
      `\nThe test run had ended ${GRACE_MS / 1000} s ago and something a suite left open held the process:\n` +
        [...handles.map(describeHandle), ...others].map((line) => `  ${line}\n`).join('') +
        'Ending it here (child processes killed); find the suite that opened it.\n',
    );
    for (const handle of handles) if (isChildProcess(handle)) handle.kill!();
    process.exit();
  }, GRACE_MS).unref();
}
