// The `strapi-plugin-ratelimit` command as a shell runs it (the compiled dist/mock/cli.js, which
// `npm test` builds first): help and version the usual ways, and a taken port named with the flag
// that moves it, never a stack trace (issue 16 items 5 and 6).
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Redis } from '@upstash/redis';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const CLI = path.resolve(__dirname, '../../../dist/mock/cli.js');
const { version } = require('../../../package.json') as { version: string };

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function run(...args: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], { timeout: 20_000, env: { ...process.env, MOCK_KV_PORT: '', MOCK_WORKFLOW_PORT: '' } });
    return { code: 0, stdout, stderr };
  } catch (failure) {
    const { code, stdout, stderr } = failure as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

function occupyPort(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => resolve(server));
  });
}

const portOf = (server: Server): number => (server.address() as { port: number }).port;

/** Port 8080 held for the test, or left as it is when something else holds it already. */
function hold8080(): Promise<Server | undefined> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (failure: NodeJS.ErrnoException) => (failure.code === 'EADDRINUSE' ? resolve(undefined) : reject(failure)));
    server.listen(8080, '127.0.0.1', () => resolve(server));
  });
}

describe('the strapi-plugin-ratelimit command', () => {
  it('issue 28 item 4: `kv` starts the key-value server alone, so port 8080 being taken does not stop it', async () => {
    const taken = await hold8080();
    const child = spawn(process.execPath, [CLI, 'kv', '--port', '0', '--token', 'dev-token'], { env: { ...process.env, MOCK_KV_PORT: '', MOCK_WORKFLOW_PORT: '' } });
    try {
      const [firstLine] = (await Promise.race([once(createInterface(child.stdout), 'line'), once(child, 'exit').then(([code]) => [`exited ${code}`])])) as [string];
      const ready = JSON.parse(firstLine) as { kv: { url: string; token: string } };
      expect(Object.keys(ready)).toEqual(['kv']);
      const redis = new Redis({ url: ready.kv.url, token: ready.kv.token });
      expect([ready.kv.token, await redis.set('hello', 'world'), await redis.get('hello')]).toEqual(['dev-token', 'OK', 'world']);
    } finally {
      child.kill('SIGTERM');
      taken?.close();
    }
  });

  it('issue 28 item 4: `kv --help` lists the key-value options only, its port as --port', async () => {
    const { code, stdout } = await run('kv', '--help');
    expect([code, stdout.split('\n')[0]]).toEqual([0, 'Usage: strapi-plugin-ratelimit kv [options]']);
    expect(stdout).toMatch(/^ {2}--port +MOCK_KV_PORT +key-value REST port/m);
    expect(stdout).not.toContain('workflow');
  });

  it('issue 36: `kv --tls-cert-file` without --tls-key-file, or naming a file it cannot read, is one line naming the flags and exit code 1', async () => {
    expect([await run('kv', '--port', '0', '--tls-cert-file', '/no/such/server.crt'), await run('kv', '--port', '0', '--tls-cert-file', '/no/such/server.crt', '--tls-key-file', '/no/such/server.key')]).toEqual([
      { code: 1, stdout: '', stderr: 'key-value server option tlsCertFile (--tls-cert-file) is given without tlsKeyFile (--tls-key-file): https needs both the certificate and its key, plain HTTP neither\n' },
      { code: 1, stdout: '', stderr: "key-value server option tlsCertFile (--tls-cert-file) names a file that cannot be read: ENOENT: no such file or directory, open '/no/such/server.crt'\n" },
    ]);
  });

  it('issue 28 item 4: a bad `kv` option is a usage error with the kv usage', async () => {
    const { code, stderr } = await run('kv', '--workflow-port', '0');
    expect(code).toBe(2);
    expect(stderr).toMatch(/^Unknown option '--workflow-port'.*\n\nUsage: strapi-plugin-ratelimit kv \[options\]\n/);
  });

  it.each(['', 'help', '--help', '-h'])('item 5: "%s" prints the usage and exits 0', async (command) => {
    const { code, stdout } = await run(...(command ? [command] : []));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: strapi-plugin-ratelimit <command> \[options\]\n/);
    expect(stdout).toContain('  mock ');
  });

  it.each(['version', '--version', '-v'])('item 5: "%s" prints the package version', async (command) => {
    expect(await run(command)).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('refuses an unknown command with the usage, exit code 2', async () => {
    const { code, stderr } = await run('serve');
    expect(code).toBe(2);
    expect(stderr).toMatch(/^Unknown command "serve"\.\n\nUsage: /);
  });

  it.each([
    ['workflow', '--workflow-port', 'MOCK_WORKFLOW_PORT'],
    ['key-value', '--kv-port', 'MOCK_KV_PORT'],
  ])('item 6: a taken %s port is one line naming the flag that moves it', async (_server, flag, variable) => {
    const taken = await occupyPort();
    try {
      const port = portOf(taken);
      const ports = flag === '--kv-port' ? ['--kv-port', String(port), '--workflow-port', '0'] : ['--kv-port', '0', '--workflow-port', String(port)];
      expect(await run('mock', ...ports)).toEqual({ code: 1, stdout: '', stderr: `Port ${port} is already in use: choose another with ${flag} or ${variable} (0 picks any free port)\n` });
    } finally {
      taken.close();
    }
  });
});
