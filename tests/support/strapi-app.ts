// Test support: the demo Strapi app booted with the plugin (see demo/boot-strapi.ts), plus a
// supertest agent for it. One app per test file: Strapi sets process-wide state.
import supertest from 'supertest';
import { bootStrapi, type BootedStrapi, type BootOptions } from '../../demo/boot-strapi';

export interface StrapiApp extends BootedStrapi {
  readonly request: ReturnType<typeof supertest>;
}

export async function bootStrapiApp(options: BootOptions = {}): Promise<StrapiApp> {
  const booted = await bootStrapi(options);
  return { ...booted, request: supertest(booted.strapi.server.httpServer) };
}
