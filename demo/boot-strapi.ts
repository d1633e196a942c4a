// Boots the demo Strapi app (demo/strapi-app) in-process with this package as its `ratelimit`
// plugin, on a fresh SQLite file. Used by the demo and by the end-to-end tests.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The repository root, whether this file runs from demo/ (ts-jest) or from dist/demo/ (compiled). */
export const PACKAGE_ROOT = path.basename(path.dirname(__dirname)) === 'dist' ? path.resolve(__dirname, '../..') : path.resolve(__dirname, '..');
export const DEMO_APP_DIR = path.join(PACKAGE_ROOT, 'demo/strapi-app');

export interface BootOptions {
  /** The plugin's `config` object, as a user writes it in config/plugins.js. */
  readonly config?: unknown;
  /** `enabled` of the plugin entry (default true). */
  readonly pluginEnabled?: boolean;
  /** `server.proxy` of the app, e.g. `{ koa: true, maxIpsCount: 1 }`. */
  readonly proxy?: unknown;
  /** Place `plugin::ratelimit.limit` in config/middlewares.js by hand. */
  readonly placeMiddleware?: boolean;
  /** Strapi's log level (default `http`, Strapi's own default). */
  readonly logLevel?: string;
  /** The app to boot (default: demo/strapi-app). */
  readonly appDir?: string;
  /**
   * Where Strapi finds the plugin: a path for `resolve` (default: this package's directory, the form
   * Strapi documents for local plugins), or null for node_modules.
   */
  readonly resolve?: string | null;
  /** Serve the admin panel, which `strapi build` must have built into `<appDir>/build` (default false). */
  readonly serveAdminPanel?: boolean;
  /**
   * users-permissions roles (by type) the app has from its first boot, beside `authenticated` and
   * `public`, as an app whose admins made them earlier does (default: none).
   */
  readonly roles?: readonly string[];
  /**
   * Serve Strapi's GraphQL plugin with this `config` (config/plugins.js `graphql.config`: endpoint,
   * defaultLimit, maxLimit, apolloServer...), and let the public role read articles and comments
   * (default: no GraphQL plugin).
   */
  readonly graphql?: Record<string, unknown>;
  /** Count users-permissions' password checks, read with `passwordChecksOf` (default false). */
  readonly countPasswordChecks?: boolean;
  /** users-permissions' own login limiter (default true, as an app has it). */
  readonly usersPermissionsRateLimit?: boolean;
}

/** The few members of a Strapi instance the demo and the tests use. */
export interface StrapiInstance {
  log: { level: string; info(message: string): void; warn(message: string): void; error(message: string): void };
  server: { httpServer: Server; mount(): void };
  destroy(): Promise<void>;
  plugin(name: string): unknown;
}

export interface BootedStrapi {
  readonly strapi: StrapiInstance;
  close(): Promise<void>;
}

/** The environment through which the app's config files read the options (see demo/strapi-app/config). */
export function fixtureEnvironment(options: BootOptions, databaseFile: string): Record<string, string> {
  return {
    DATABASE_FILENAME: databaseFile,
    FIXTURE_PLUGIN_ENABLED: String(options.pluginEnabled ?? true),
    FIXTURE_RATELIMIT_CONFIG: JSON.stringify(options.config ?? {}),
    FIXTURE_PROXY: JSON.stringify(options.proxy ?? { koa: false }),
    FIXTURE_PLACE_MIDDLEWARE: String(options.placeMiddleware ?? false),
    FIXTURE_LOG_LEVEL: options.logLevel ?? 'http',
    FIXTURE_PLUGIN_RESOLVE: options.resolve === null ? '' : (options.resolve ?? PACKAGE_ROOT),
    FIXTURE_ROLES: JSON.stringify(options.roles ?? []),
    FIXTURE_GRAPHQL: String(options.graphql !== undefined),
    FIXTURE_GRAPHQL_CONFIG: JSON.stringify(options.graphql ?? {}),
    FIXTURE_COUNT_PASSWORD_CHECKS: String(options.countPasswordChecks ?? false),
    FIXTURE_USERS_PERMISSIONS_RATELIMIT: String(options.usersPermissionsRateLimit ?? true),
  };
}

export async function bootStrapi(options: BootOptions = {}): Promise<BootedStrapi> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ratelimit-strapi-'));
  const appDir = options.appDir ?? DEMO_APP_DIR;
  Object.assign(process.env, fixtureEnvironment(options, path.join(dataDir, 'data.db')));
  // Imported here so that users of this module who never boot Strapi do not load it.
  const { createStrapi } = await import('@strapi/strapi');
  let strapi: StrapiInstance;
  try {
    strapi = (await createStrapi({ appDir, distDir: appDir, autoReload: false, serveAdminPanel: options.serveAdminPanel ?? false }).load()) as unknown as StrapiInstance;
  } catch (failure) {
    // A boot that fails (a config error) leaves no database folder behind either.
    rmSync(dataDir, { recursive: true, force: true });
    throw failure;
  }
  strapi.server.mount();
  return {
    strapi,
    async close() {
      await strapi.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
