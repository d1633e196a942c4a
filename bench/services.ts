// The third-party servers of the benchmark, started throwaway on loopback: a redis-server on a free
// port with no persistence, and webdis (a C HTTP front for Redis) in front of that same redis-server.
// They stop with the run's other processes (processes.ts); their temporary files go with them.
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, spawnBinary, stopProcess, waitForPort } from './processes';

export interface Service {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
}

/** True when `binary` is an executable file in a directory of PATH. */
export function onPath(binary: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((directory) => {
    try {
      accessSync(path.join(directory, binary), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

async function startBinary(binary: string, args: readonly string[], port: number, url: string, workDir: string): Promise<Service> {
  const child = spawnBinary(binary, args);
  // However it ends (stopped here, or by the run's cleanup on failure), its files go with it.
  child.once('exit', () => rmSync(workDir, { recursive: true, force: true }));
  try {
    await waitForPort(port, child, binary);
  } catch (failure) {
    await stopProcess(child);
    throw failure;
  }
  return { url, port, pid: child.pid! };
}

export async function startRedisServer(): Promise<Service> {
  const port = await freePort();
  const workDir = mkdtempSync(path.join(tmpdir(), 'bench-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', workDir, '--daemonize', 'no', '--loglevel', 'warning'];
  return startBinary('redis-server', args, port, `redis://127.0.0.1:${port}/0`, workDir);
}

/** webdis with a generated config pointing at `redisPort`; no ACL, no websockets, logs in a temp dir. */
export async function startWebdis(redisPort: number): Promise<Service> {
  const port = await freePort();
  const workDir = mkdtempSync(path.join(tmpdir(), 'bench-webdis-'));
  const config = {
    redis_host: '127.0.0.1',
    redis_port: redisPort,
    redis_auth: null,
    http_host: '127.0.0.1',
    http_port: port,
    threads: 2,
    pool_size: 10,
    daemonize: false,
    websockets: false,
    database: 0,
    verbosity: 1,
    logfile: path.join(workDir, 'webdis.log'),
  };
  const configFile = path.join(workDir, 'webdis.json');
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  return startBinary('webdis', [configFile], port, `http://127.0.0.1:${port}`, workDir);
}
