// @upstash/redis's Requester over the embedded key-value store (mock/kv-rest/embedded-store.ts),
// which answers in-process what the REST API would answer over HTTP. It is loaded on first use
// through the package's own `strapi-plugin-ratelimit/mock` export: server/ never imports mock/ (each
// stands alone), and a production deployment, which always has a `url`, never loads the engine.
import type { Requester, UpstashRequest, UpstashResponse } from '@upstash/redis';

/** The part of `strapi-plugin-ratelimit/mock` used here (its EmbeddedStore, restated to keep the layers apart). */
interface EmbeddedStore {
  request(path: string, body: unknown): Promise<unknown>;
  close(): Promise<void>;
}

function createEmbeddedStore(): EmbeddedStore {
  const mock = require('strapi-plugin-ratelimit/mock') as { createEmbeddedStore(): EmbeddedStore };
  return mock.createEmbeddedStore();
}

/** Starts the store on its first command, so a disabled plugin never loads the engine. */
export class EmbeddedRequester implements Requester {
  private store: EmbeddedStore | undefined;

  /** The store's own promise, passed on as it is: no async layer of its own on every command. */
  request<TResult = unknown>(request: UpstashRequest): Promise<UpstashResponse<TResult>> {
    this.store ??= createEmbeddedStore();
    return this.store.request(request.path?.join('/') ?? '', request.body) as Promise<UpstashResponse<TResult>>;
  }

  close(): void {
    void this.store?.close();
  }
}
