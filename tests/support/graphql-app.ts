// Test support for the GraphQL suites (issue 35): the demo app serving Strapi's GraphQL plugin
// (demo/strapi-app/config/plugins.js, FIXTURE_GRAPHQL), with a key-value REST server as the plugin's
// store, users-permissions' own login limiter off (so what is refused is this plugin's doing), its
// password checks counted, one confirmed user to log in as, and articles with comments to read
// through nested paginated lists. Callers are told apart by X-Forwarded-For (the app trusts one
// proxy hop), so each test of a file can be a caller of its own.
import path from 'node:path';
import type { Response } from 'supertest';
import { startKvRestServer, type KvRestServer } from '../../mock';
import { DEMO_APP_DIR, type BootOptions } from '../../demo/boot-strapi';
import { bootStrapiApp, type StrapiApp } from './strapi-app';
import { windowsHaveRoomForTheSuite } from './window-room';

/** The user every suite logs in as. */
export const READER = { identifier: 'reader', password: 'Fixture-Passw0rd' } as const;

/** The GraphQL plugin's config in these suites: page sizes bounded, Apollo's batching on. */
export const GRAPHQL_CONFIG = { defaultLimit: 25, maxLimit: 100, apolloServer: { allowBatchedHttpRequests: true } } as const;

export const ARTICLES = 3;
export const COMMENTS_PER_ARTICLE = 4;

export interface GraphqlAppOptions extends Omit<BootOptions, 'config' | 'graphql'> {
  /** The GraphQL plugin's config (default GRAPHQL_CONFIG). */
  readonly graphql?: Record<string, unknown>;
}

export interface GraphqlSuite {
  readonly app: StrapiApp;
  readonly kv: KvRestServer;
  /** POSTs `body` (one operation or a batch) to `endpoint` (default /graphql) as the caller at `ip`. */
  post(ip: string, body: unknown, endpoint?: string): Promise<Response>;
  /** GETs `?query=` (with Apollo's CSRF header) as the caller at `ip`. */
  get(ip: string, query: string, endpoint?: string): Promise<Response>;
  /** How many passwords users-permissions checked since boot. */
  passwordChecks(): number;
}

/** A mutation of `count` aliased logins of READER (`count` 1 is a plain `login`). */
export function loginMutation(count = 1, password: string = READER.password): string {
  const login = `login(input: { identifier: "${READER.identifier}", password: "${password}" }) { jwt }`;
  if (count === 1) return `mutation { ${login} }`;
  return `mutation { ${Array.from({ length: count }, (_, index) => `l${index}: ${login}`).join(' ')} }`;
}

/** The fixture app's own counter of password checks (demo/strapi-app/src/fixture-graphql.js). */
const { passwordChecksOf } = require(path.join(DEMO_APP_DIR, 'src/fixture-graphql.js')) as { passwordChecksOf(strapi: unknown): number };

interface SeedingStrapi {
  db: { query(uid: string): { findOne(query: object): Promise<{ id: number }> } };
  plugin(name: string): { service(name: string): { add(values: object): Promise<unknown> } };
  documents(uid: string): { create(input: { data: object }): Promise<{ documentId: string }> };
}

async function seed(strapi: SeedingStrapi): Promise<void> {
  const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
  await strapi.plugin('users-permissions').service('user').add({ username: READER.identifier, email: 'reader@example.com', password: READER.password, provider: 'local', confirmed: true, role: role.id });
  for (let article = 0; article < ARTICLES; article += 1) {
    const { documentId } = await strapi.documents('api::article.article').create({ data: { title: `Article ${article}` } });
    for (let comment = 0; comment < COMMENTS_PER_ARTICLE; comment += 1) {
      await strapi.documents('api::comment.comment').create({ data: { body: `Comment ${article}.${comment}`, article: documentId } });
    }
  }
}

/** For one test file: the store and the app booted with `pluginConfig`, both stopped after the file's tests, which start with room in each window (window-room.ts). */
export function graphqlAppForSuite(pluginConfig: Record<string, unknown>, options: GraphqlAppOptions = {}): GraphqlSuite {
  const state = {} as { app: StrapiApp; kv: KvRestServer };
  beforeAll(async () => {
    state.kv = await startKvRestServer();
    state.app = await bootStrapiApp({
      proxy: { koa: true, maxIpsCount: 1 },
      logLevel: 'error',
      usersPermissionsRateLimit: false,
      countPasswordChecks: true,
      ...options,
      graphql: options.graphql ?? GRAPHQL_CONFIG,
      config: { url: state.kv.url, token: state.kv.token, ...pluginConfig },
    });
    await seed(state.app.strapi as unknown as SeedingStrapi);
  }, 120_000);
  windowsHaveRoomForTheSuite(pluginConfig);
  afterAll(async () => {
    await state.app?.close();
    await state.kv?.close();
  });
  return {
    get app() {
      return state.app;
    },
    get kv() {
      return state.kv;
    },
    post: async (ip, body, endpoint = '/graphql') => state.app.request.post(endpoint).set('X-Forwarded-For', ip).send(body as object),
    get: async (ip, query, endpoint = '/graphql') => state.app.request.get(endpoint).query({ query }).set('X-Forwarded-For', ip).set('apollo-require-preflight', 'true'),
    passwordChecks: () => passwordChecksOf(state.app.strapi),
  };
}
