// Test support: the demo Strapi app booted in-process with the plugin (see demo/boot-strapi.ts), a
// supertest agent for it, and what it logged. Its log is recorded, never printed: printed through
// jest's console it slowed the run and buried failures under hundreds of boot lines. One app per
// test file: Strapi sets process-wide state. The other way, a Strapi app in its own process, is
// tests/fixtures/strapi-child.ts, whose header says when to use which.
import supertest from 'supertest';
import { startKvRestServer, type KvRestServer } from '../../mock';
import { bootStrapi, type BootedStrapi, type BootOptions } from '../../demo/boot-strapi';
import { watchStrapiLog, type LoggedLine } from './strapi-log';
import { windowsHaveRoomForTheSuite } from './window-room';

export interface StrapiApp extends BootedStrapi {
  readonly request: ReturnType<typeof supertest>;
  /** Every line Strapi's logger wrote from the start of the boot, at Strapi's own log level. */
  readonly log: readonly LoggedLine[];
}

export async function bootStrapiApp(options: BootOptions = {}): Promise<StrapiApp> {
  const log = watchStrapiLog();
  let booted: BootedStrapi;
  try {
    booted = await bootStrapi(options);
  } catch (failure) {
    log.restore();
    throw failure;
  }
  const close = async (): Promise<void> => {
    try {
      await booted.close();
    } finally {
      log.restore();
    }
  };
  return { ...booted, close, log: log.lines, request: supertest(booted.strapi.server.httpServer) };
}

/**
 * For one test file: a key-value REST server and the app booted with `pluginConfig` plus that
 * server's url and token (which `pluginConfig` may override), and the other `boot` options, both
 * stopped after the file's tests; its tests start with room in each window (window-room.ts). Read
 * them inside tests.
 */
export function strapiAppWithStoreForSuite(pluginConfig: Record<string, unknown>, boot: Omit<BootOptions, 'config'> = {}): { readonly app: StrapiApp; readonly kv: KvRestServer } {
  const suite = {} as { app: StrapiApp; kv: KvRestServer };
  beforeAll(async () => {
    suite.kv = await startKvRestServer();
    suite.app = await bootStrapiApp({ ...boot, config: { url: suite.kv.url, token: suite.kv.token, ...pluginConfig } });
  });
  windowsHaveRoomForTheSuite(pluginConfig);
  afterAll(async () => {
    await suite.app?.close();
    await suite.kv?.close();
  });
  return suite;
}
