// Child of kv-request-instructions-process.ts: the plugin (this checkout's build) deciding through
// Koa, one decision per turn (koa-decisions.ts), against the key-value server it is told, so each of
// the server's turns holds one request, the plugin's /pipeline of one decision. Not under callgrind
// (valgrind does not follow children): only the server's own work is counted.
import path from 'node:path';
import { koaDecisions, pluginMiddleware, type Decisions } from './koa-decisions';

/** What the server process asks for: `decisions` decisions against the store at `url`. */
export interface KvClientAsk {
  readonly url: string;
  readonly token: string;
  readonly decisions: number;
}

const THIS_CHECKOUT = path.resolve(__dirname, '..', '..');
const deciders = new Map<string, Decisions>();

process.on('message', (ask: KvClientAsk) => {
  let decide = deciders.get(ask.url);
  if (decide === undefined) {
    decide = koaDecisions(pluginMiddleware(THIS_CHECKOUT, { url: ask.url, token: ask.token }), 1);
    deciders.set(ask.url, decide);
  }
  decide(ask.decisions).then(
    () => process.send!({ done: ask.decisions }),
    (failure: unknown) => {
      console.error(failure);
      process.exit(1);
    },
  );
});
process.once('disconnect', () => process.exit(0));
