// Parent <-> child calls over Node's IPC channel: the child announces itself with one `ready`
// payload, then answers named calls (`cpu-start`, `cpu-stop`, `usage`, ...) one reply each.
import type { ChildProcess } from 'node:child_process';

type Handlers = Record<string, () => unknown>;

interface CallMessage {
  readonly call: string;
  readonly id: number;
}

interface ReplyMessage {
  readonly id: number;
  readonly value?: unknown;
  readonly error?: string;
}

/** In a child: tell the parent it is ready (with what it needs to know), then answer its calls. */
export function serveCalls(ready: unknown, handlers: Handlers): void {
  const send = process.send?.bind(process);
  if (!send) throw new Error('this module runs as a child process of bench/run.js');
  process.on('message', (message: CallMessage) => {
    const handler = handlers[message.call];
    Promise.resolve()
      .then(() => {
        if (!handler) throw new Error(`unknown call ${message.call}`);
        return handler();
      })
      .then(
        (value) => send({ id: message.id, value } satisfies ReplyMessage),
        (failure: unknown) => send({ id: message.id, error: failure instanceof Error ? failure.message : String(failure) } satisfies ReplyMessage),
      );
  });
  // The parent went away (even killed): nothing of ours may outlive it.
  process.on('disconnect', () => process.exit(0));
  send({ ready });
}

/** In the parent: the child's calls as promises. */
export class ChildCalls {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(failure: Error): void }>();

  constructor(private readonly child: ChildProcess) {
    child.on('message', (message: ReplyMessage) => {
      const waiter = this.waiting.get(message.id);
      if (!waiter) return;
      this.waiting.delete(message.id);
      if (message.error !== undefined) waiter.reject(new Error(message.error));
      else waiter.resolve(message.value);
    });
    child.once('exit', (code, signal) => {
      for (const waiter of this.waiting.values()) waiter.reject(new Error(`the child exited (${signal ?? code}) before answering`));
      this.waiting.clear();
    });
  }

  call<T>(name: string): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.child.send({ call: name, id } satisfies CallMessage);
    });
  }
}

/** The `ready` payload of a freshly forked child, or its failure to start. */
export function readyPayload<T>(child: ChildProcess, what: string, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${what} did not start within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message: { ready?: T }) => {
      if (!('ready' in message)) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.off('message', onMessage);
      resolve(message.ready as T);
    };
    const onExit = (code: number | null, signal: string | null) => fail(new Error(`${what} exited (${signal ?? code}) while starting`));
    const fail = (failure: Error) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      reject(failure);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}
