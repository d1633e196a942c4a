// The key-value REST store in-process, without HTTP: the Strapi plugin's zero-config development
// store. It is the REST server minus the socket: the memory engine behind the same command checks
// (command table, size limits) and the same JSON encoding, so the plugin sees exactly what it would
// see over HTTP from `npx strapi-plugin-ratelimit mock`. The plugin loads it lazily through the
// package's own `strapi-plugin-ratelimit/mock` export, never by importing mock/ from server/ (the two
// stay independent, and production never loads the engine). A request's body is handed over as the
// values a client would send as JSON and checked by the very code that checks the HTTP server's
// parsed bodies, and its answers are the values the HTTP server's JSON would parse to
// (http/json-value.ts): no JSON text either way.
import { commandFromJsonValue, commandsFromJsonValues } from './http/command-input';
import { CommandRunner, type RunContext } from './http/command-runner';
import { envelopeValue, envelopeValues } from './http/json-value';
import { HttpError } from '../http-kit/http-error';
import { RequestLimits } from './http/limits';
import { generateToken, TokenRegistry } from './http/tokens';
import { createMemoryEngine } from './memory';
import { KV_REST_DEFAULTS } from './server';

export interface EmbeddedStore {
  /**
   * Answers what `POST <url>/<path>` with this JSON body would answer (`path` is '' for one command,
   * `pipeline` or `multi-exec`): the parsed JSON of the response, `{ result }`, `{ error }` or an
   * array of them. Rejects only when the store is closed.
   */
  request(path: string, body: unknown): Promise<unknown>;
  close(): Promise<void>;
}

/** The store's own user, with the Standard token's rights. */
const CONTEXT: RunContext = { principal: { user: 'default', readOnly: false }, address: 'in-process:0' };

export function createEmbeddedStore(): EmbeddedStore {
  const engine = createMemoryEngine({});
  // No token reaches this store: the registry only has to exist for the runner. The REST server's
  // default limits apply (sizes bounded, no daily count).
  const runner = new CommandRunner(engine, new TokenRegistry(generateToken(), generateToken()), new RequestLimits(KV_REST_DEFAULTS, engine));
  const answer = async (path: string, body: unknown): Promise<unknown> => {
    if (path === '') return envelopeValue((await runner.runEach([commandFromJsonValue(body)], CONTEXT))[0]);
    if (path === 'pipeline') return envelopeValues(await runner.runEach(commandsFromJsonValues(body), CONTEXT));
    if (path === 'multi-exec') {
      const replies = await runner.runTransaction(commandsFromJsonValues(body), CONTEXT);
      if (!Array.isArray(replies)) throw new HttpError(400, replies.message);
      return envelopeValues(replies);
    }
    throw new HttpError(404, `ERR the embedded store serves one command, /pipeline and /multi-exec, not /${path}`);
  };
  return {
    async request(path, body) {
      try {
        return await answer(path, body);
      } catch (failure) {
        if (failure instanceof HttpError) return { error: failure.message };
        throw failure;
      }
    },
    close: () => engine.close(),
  };
}
