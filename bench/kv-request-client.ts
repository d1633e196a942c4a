// Child of kv-request-instructions-process.ts: the plugin (this checkout's build) deciding through
// Koa, one decision per turn (koa-decisions.ts), against the key-value server it is told, so each of
// the server's turns holds one request, the plugin's /pipeline of one decision. Not under callgrind
// (valgrind does not follow children): only the server's own work is counted. The plugin waits up
// to a minute for the server, which callgrind slows down some 50 times; any warning (a decision let
// through unlimited, which the server never saw) fails the run.
import path from 'node:path';
import { koaDecisions, PATIENT_TIMEOUT_MS, pluginMiddleware, type Decisions } from './koa-decisions';

/** What the server process asks for: `decisions` decisions against the store at `url`. */
export interface KvClientAsk {
  readonly url: string;
  readonly token: string;
  readonly decisions: number;
}

const THIS_CHECKOUT = path.resolve(__dirname, '..', '..');
const deciders = new Map<string, Decisions>();

function failed(failure: unknown): never {
  console.error(failure);
  process.exit(1);
}

process.on('message', (ask: KvClientAsk) => {
  let decide = deciders.get(ask.url);
  if (decide === undefined) {
    decide = koaDecisions(pluginMiddleware(THIS_CHECKOUT, { url: ask.url, token: ask.token, timeout: PATIENT_TIMEOUT_MS }, (line) => failed(`the plugin warned, so a decision may not have reached the server: ${line}`)), 1);
    deciders.set(ask.url, decide);
  }
  decide(ask.decisions).then(() => process.send!({ done: ask.decisions }), failed);
});
process.once('disconnect', () => process.exit(0));
