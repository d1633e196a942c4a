// Test support: a throwaway redis-server of the test's own on a free loopback port, which the test
// may stop and start again. Without the binary, suites skip and say why, unless REQUIRE_REDIS=1.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { describeWithProgram, type InstalledProgram } from './installed-program';

const REDIS_SERVER: InstalledProgram = {
  name: 'redis-server',
  installed: spawnSync('redis-server', ['--version']).status === 0,
  requiredBy: 'REQUIRE_REDIS',
};

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export class OwnRedisServer {
  private process: ChildProcess | undefined;

  private constructor(readonly port: number, private readonly extraArgs: readonly string[]) {}

  /** `extraArgs` are more redis-server options, e.g. `['--busy-reply-threshold', '300']`. */
  static async start(extraArgs: readonly string[] = []): Promise<OwnRedisServer> {
    const server = new OwnRedisServer(await freePort(), extraArgs);
    await server.startAgain();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}/0`;
  }

  async startAgain(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...this.extraArgs], { stdio: ['ignore', 'pipe', 'inherit'] });
    this.process = child;
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Ready to accept connections')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`redis-server exited with code ${code}`)));
    });
  }

  /** Freezes redis-server (SIGSTOP): connections open, nothing answered, as a hung server. */
  pause(): void {
    this.process?.kill('SIGSTOP');
  }

  resume(): void {
    this.process?.kill('SIGCONT');
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    });
  }
}

/** `describe` when redis-server can run here; otherwise a skipped suite that says why (or a failure under REQUIRE_REDIS=1). */
export function describeWithRedisBinary(title: string, suite: () => void): void {
  describeWithProgram(REDIS_SERVER, title, suite);
}
