// Test support: a minimal RESP2 client for talking to a real redis-server in differential tests,
// answering the same plain values as the memory engine harness.
import { Socket } from 'node:net';
import type { Plain } from './memory-engine-harness';

type Parsed = readonly [value: Plain, next: number];

export class RespClient {
  private buffer = '';
  private readonly waiting: ((value: Plain) => void)[] = [];

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (let parsed = this.parse(0); parsed; parsed = this.parse(0)) {
        this.buffer = this.buffer.slice(parsed[1]);
        this.waiting.shift()?.(parsed[0]);
      }
    });
  }

  static connect(url: string): Promise<RespClient> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = new Socket();
      socket.once('error', reject);
      socket.connect(Number(port), hostname, () => resolve(new RespClient(socket)));
    });
  }

  /** One command; arguments are byte strings (latin1). */
  send(args: readonly string[]): Promise<Plain> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      const parts = args.map((arg) => `$${Buffer.byteLength(arg, 'latin1')}\r\n${arg}\r\n`);
      this.socket.write(Buffer.from(`*${args.length}\r\n${parts.join('')}`, 'latin1'));
    });
  }

  close(): void {
    this.socket.destroy();
  }

  /** One reply starting at `at`, or undefined while it is incomplete. */
  private parse(at: number): Parsed | undefined {
    const end = this.buffer.indexOf('\r\n', at);
    if (end < 0) return undefined;
    const line = this.buffer.slice(at + 1, end);
    switch (this.buffer[at]) {
      case '+':
        return [line, end + 2];
      case '-':
        return [{ error: line }, end + 2];
      case ':':
        return [Number(line), end + 2];
      case '$': {
        const length = Number(line);
        if (length < 0) return [null, end + 2];
        if (this.buffer.length < end + 4 + length) return undefined;
        return [this.buffer.slice(end + 2, end + 2 + length), end + 4 + length];
      }
      default: {
        const count = Number(line);
        if (count < 0) return [null, end + 2];
        const items: Plain[] = [];
        let next = end + 2;
        for (let index = 0; index < count; index++) {
          const item = this.parse(next);
          if (!item) return undefined;
          items.push(item[0]);
          next = item[1];
        }
        return [items, next];
      }
    }
  }
}
