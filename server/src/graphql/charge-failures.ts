// What a request at the GraphQL endpoint takes when charging it throws (docs/graphql.md, "What the
// plugin answers itself"): an error nobody planned for (a bug of the plugin's or of graphql-js's, met
// by some input) in the body read, the parse, the cost walk or the remembered charges. A rate limiter
// fails safe here: an input that breaks the charge must not run uncounted, so nothing of it runs and
// it takes 1 token from every GraphQL strategy, as a request the plugin cannot read (a flood of them
// stays limited), and the plugin answers it 503 SERVICE_UNAVAILABLE in GraphQL's shape, without the
// error's text or stack (server-side monitoring sees a 5xx: the fault is the limiter's, not the
// client's). Shadow strategies never refuse: when every GraphQL strategy is one, the request is
// counted and passed on. Before, the error escaped to Koa: a 500 (with a stack trace outside
// production) and no token taken. One log line per kind of error (its name and the frame that threw
// it, so values an attacker puts in messages do not make new kinds), at most MAX_KINDS of them:
// a flood of one failing document logs one line, as an outage does (limiter/store-health.ts). An
// error is known as one whatever realm made it (util.types.isNativeError): `instanceof Error` took
// Node's own errors for plain objects where the app runs in a vm context (jest), and logged no name.
import { types } from 'node:util';
import type { CompiledRule } from '../http/compile-strategies';
import type { RequestCharges } from './graphql-charges';

/** Kinds of error logged at most: past them, failures are answered as before but no longer logged. */
const MAX_KINDS = 32;

export interface ChargeFailureLogger {
  warn(message: string): void;
  /** Lines that need an operator; warn when absent. */
  error?(message: string): void;
}

/** Where an error was thrown: the first frame of its stack, when it has one. */
function frameOf(failure: unknown): string {
  const stack = types.isNativeError(failure) && typeof failure.stack === 'string' ? failure.stack : '';
  const frame = stack.split('\n').find((line) => line.trimStart().startsWith('at '));
  return frame ? frame.trim().slice(3, 300) : 'no stack';
}

/**
 * The error's name and message, at most 300 characters, escaped as in JSON: a message may carry a
 * request's text, line breaks included, which must not forge log lines. A thrown value whose text
 * cannot be had (a throwing toString) is named by its type: this runs where a failure must not escape.
 */
function describe(failure: unknown): string {
  let text: string;
  try {
    text = types.isNativeError(failure) ? `${failure.name}: ${failure.message}` : `thrown ${typeof failure}: ${String(failure)}`;
  } catch {
    text = `thrown ${typeof failure}`;
  }
  return JSON.stringify(text.slice(0, 300)).slice(1, -1);
}

export class ChargeFailures {
  private readonly logged = new Set<string>();
  private readonly answer: RequestCharges;
  /** What the log line says becomes of such a request. */
  private readonly consequence: string;

  constructor(
    rules: readonly CompiledRule[],
    private readonly logger: ChargeFailureLogger,
  ) {
    const charges = rules.map(() => 1);
    const everyShadow = rules.every((rule) => rule.mode === 'shadow');
    this.answer = everyShadow
      ? { kind: 'charged', charges }
      : { kind: 'answer', charges, status: 503, message: 'Rate limiting could not count this request (an error of the rate limiter, logged on the server), so it was not run', code: 'SERVICE_UNAVAILABLE' };
    const strategies = rules.map((rule) => `strategy[${rule.index}]`).join(', ');
    this.consequence = everyShadow
      ? `such a request takes 1 token from each GraphQL strategy (${strategies}, all in shadow mode) and is passed on`
      : `such a request is answered 503 without running and takes 1 token from each GraphQL strategy (${strategies})`;
  }

  /** The charges of a request whose charge threw `failure`; logs the failure's kind the first time. */
  charged(failure: unknown): RequestCharges {
    const frame = frameOf(failure);
    const kind = `${types.isNativeError(failure) ? failure.name : typeof failure} at ${frame}`;
    if (!this.logged.has(kind) && this.logged.size < MAX_KINDS) {
      this.logged.add(kind);
      const line = `[ratelimit] charging a request at the GraphQL endpoint failed (${describe(failure)}, at ${frame}): ${this.consequence}; each kind of error is logged once`;
      (this.logger.error ?? this.logger.warn).call(this.logger, line);
    }
    return this.answer;
  }
}
