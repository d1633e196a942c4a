// Test support: the demo Strapi app booted with the plugin (see demo/boot-strapi.ts), plus a
// supertest agent for it. One app per test file: Strapi sets process-wide state.
import supertest from 'supertest';
import { startKvRestServer, type KvRestServer } from '../../mock';
import { bootStrapi, type BootedStrapi, type BootOptions } from '../../demo/boot-strapi';

export interface StrapiApp extends BootedStrapi {
  readonly request: ReturnType<typeof supertest>;
}

export async function bootStrapiApp(options: BootOptions = {}): Promise<StrapiApp> {
  const booted = await bootStrapi(options);
  return { ...booted, request: supertest(booted.strapi.server.httpServer) };
}

/**
 * For one test file: a key-value REST server and the app booted with `pluginConfig` plus that
 * server's url and token, both stopped after the file's tests. Read them inside tests.
 */
export function strapiAppWithStoreForSuite(pluginConfig: Record<string, unknown>): { readonly app: StrapiApp; readonly kv: KvRestServer } {
  const suite = {} as { app: StrapiApp; kv: KvRestServer };
  beforeAll(async () => {
    suite.kv = await startKvRestServer();
    suite.app = await bootStrapiApp({ config: { url: suite.kv.url, token: suite.kv.token, ...pluginConfig } });
  });
  afterAll(async () => {
    await suite.app?.close();
    await suite.kv?.close();
  });
  return suite;
}
