// Test support: the few members of a Strapi instance that the plugin's server side touches
// (config.get, server.use, log), recording what the plugin does with them, for tests of its boot
// and admin controllers that need no real Strapi (strapi-app.ts boots the real one).
import type { Middleware } from 'koa';

export interface FakeStrapi {
  readonly strapi: {
    config: { get(path: string, fallback?: unknown): unknown };
    server: { use(middleware: Middleware): void };
    log: { info(line: string): void; warn(line: string): void; error(line: string): void };
  };
  /** What the plugin added through strapi.server.use, in order. */
  readonly used: Middleware[];
  /** What the plugin logged, by level. */
  readonly lines: { readonly info: string[]; readonly warn: string[]; readonly error: string[] };
}

/** `settings` by the whole path config.get reads (`plugin::ratelimit`, `middlewares`, `server.proxy.koa` ...). */
export function fakeStrapi(settings: Readonly<Record<string, unknown>>): FakeStrapi {
  const used: Middleware[] = [];
  const lines = { info: [] as string[], warn: [] as string[], error: [] as string[] };
  const strapi = {
    config: { get: (path: string, fallback?: unknown) => settings[path] ?? fallback },
    server: { use: (middleware: Middleware) => void used.push(middleware) },
    log: { info: (line: string) => void lines.info.push(line), warn: (line: string) => void lines.warn.push(line), error: (line: string) => void lines.error.push(line) },
  };
  return { strapi, used, lines };
}
