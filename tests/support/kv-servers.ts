// Test support: starts the key-value REST server on each engine available here, so one contract
// suite runs against all of them, and small helpers to call it over plain HTTP.
import { startKvRestServer, type KvRestServer, type KvRestServerOptions } from '../../mock';

export type EngineName = 'memory';

export const ENGINES: readonly EngineName[] = ['memory'];

export function startServer(engine: EngineName, options: KvRestServerOptions = {}): Promise<KvRestServer> {
  return startKvRestServer({ ...options, engine });
}

/** Runs `suite` once per engine, each in its own `describe` named after the engine. */
export function describeEachEngine(title: string, suite: (engine: EngineName) => void): void {
  for (const engine of ENGINES) describe(`${title} [${engine} engine]`, () => suite(engine));
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: unknown;
}

/** A plain HTTP call with the Standard token unless `token` is given (null sends none). */
export async function call(server: KvRestServer, path: string, init: RequestInit & { token?: string | null } = {}): Promise<RawResponse> {
  const headers = new Headers(init.headers);
  const token = init.token === undefined ? server.token : init.token;
  if (token !== null) headers.set('authorization', `Bearer ${token}`);
  const response = await fetch(`${server.url}${path}`, { ...init, headers });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export const postJson = (server: KvRestServer, path: string, body: unknown, init: RequestInit & { token?: string | null } = {}): Promise<RawResponse> =>
  call(server, path, { ...init, method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });
