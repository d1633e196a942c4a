// Test support: a Strapi app with the plugin in its own process (see strapi-child.js), for tests
// that need two instances at once or a plugin installed from a packed tarball.
import { fork } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { BootOptions } from '../../demo/boot-strapi';
import { holdNoReference, killedOnExit } from '../fixtures/child-processes';

export interface StrapiProcess {
  readonly url: string;
  stop(): Promise<void>;
}

export function startStrapiProcess(options: BootOptions, extraEnv: NodeJS.ProcessEnv = {}): Promise<StrapiProcess> {
  const child = fork(path.join(__dirname, 'strapi-child.js'), [], {
    env: { ...process.env, ...extraEnv, BOOT_OPTIONS: JSON.stringify(options) },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  killedOnExit(child);
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const exitedEarly = (code: number | null) => reject(new Error(`Strapi child exited with code ${code} before listening`));
    child.once('exit', exitedEarly);
    lines.on('line', (line) => {
      if (!line.startsWith('{')) return;
      const message = JSON.parse(line) as { port?: number; error?: string };
      if (message.error) return reject(new Error(message.error));
      child.off('exit', exitedEarly);
      holdNoReference(child);
      resolve({
        url: `http://127.0.0.1:${message.port}`,
        stop: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.send('stop');
          }),
      });
    });
  });
}

/**
 * The plugin config of instances that share the key-value REST server `kv`, with `rest` added. The
 * first calls reach a store that has just started (scripts compiled on first use) while several
 * Strapi boots load the machine: a generous timeout keeps them from failing open.
 */
export const sharedStoreConfig = (kv: { readonly url: string; readonly token: string }, rest: Record<string, unknown>) => ({ url: kv.url, token: kv.token, timeout: 5000, ...rest });
