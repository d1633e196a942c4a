// The third-party servers of the benchmark, started throwaway on loopback: the tests' throwaway
// redis-server, and webdis (a C HTTP front for Redis) in front of that same redis-server.
// They stop with the run's other processes (processes.ts); their temporary files go with them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../tests/fixtures/ports';
import { ThrowawayRedisServer } from '../tests/fixtures/redis-server';
import { spawnBinary, stopProcess, trackProcess, waitForPort } from './processes';

export interface Service {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
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

/** The tests' throwaway redis-server (tests/fixtures/redis-server.ts), stopped with the run's other processes. */
export async function startRedisServer(): Promise<Service> {
  const redis = await ThrowawayRedisServer.start();
  const child = trackProcess(redis.process!);
  // However it ends (stopped by the run's cleanup, or on failure), its files go with it.
  child.once('exit', () => void redis.remove());
  return { url: redis.url, port: redis.port, pid: child.pid! };
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
