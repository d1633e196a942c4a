// A strategy's live limit that someone else wrote (the hosted console, redis-cli) and that is no
// limit: the library's scripts read the live key themselves, and such a value makes them decide in
// ways nobody chose, differently per algorithm ("abc" refuses everyone in a fixed window and fails
// the sliding window's script; "0" refuses everyone; a huge number admits everyone). So a store
// answer made under a live value that is not a whole number from 1 to MAX_TOKENS (the answer's limit
// says so), or a script that failed on a strategy's keys, is no verdict: the middleware applies
// failureMode to it as to an answer the store could not give, and warns once per strategy (until the
// strategy answers validly again), naming the key that "Back to config" removes. It is not an outage:
// the store answers, and other strategies keep their verdicts.
import { MAX_TOKENS } from '../config/bounds';
import { failureMessage } from '../failure-message';
import type { Rule } from '../config/rules';
import { liveLimitKey } from './live-limit-scope';
import { StoreCommandError } from '../store/script-client';

export class ForeignLiveLimitError extends Error {
  override readonly name = 'ForeignLiveLimitError';

  readonly ruleIndex: number;

  constructor(rule: Rule, reason: string) {
    super(
      `[ratelimit] strategy[${rule.index}] (${rule.methods.join(',')} ${rule.route}): the live limit at ${liveLimitKey(rule.keys.liveLimitScope())} is not a whole number from 1 to ${MAX_TOKENS}, so the store's answers for it are not used (failureMode applies) until "Back to config" removes it (${reason})`,
    );
    this.ruleIndex = rule.index;
  }
}

/** The error for an answer whose limit is no valid limit. */
export const invalidLimitAnswer = (rule: Rule, limit: unknown): ForeignLiveLimitError => new ForeignLiveLimitError(rule, limit === undefined ? 'the script answered no limit' : `the script answered limit ${String(limit)}`);

/**
 * A failure of the rule's store call as the middleware handles it: a script that failed while it
 * ran (the store names the failing line `user_script:<n>`: it read a value of no limit or of the
 * wrong type) is a ForeignLiveLimitError; anything else (a refused token, an outage) as it is.
 */
export function scriptFailure(rule: Rule, failure: unknown): unknown {
  return failure instanceof StoreCommandError && failure.message.includes('user_script') ? new ForeignLiveLimitError(rule, `the script failed: ${failureMessage(failure)}; a counter of the strategy holding no number fails it too`) : failure;
}

/** One warning per strategy while its live value stays foreign. */
export class ForeignLiveLimitWarnings {
  private readonly warned = new Set<number>();

  constructor(private readonly logger: { warn(message: string): void }) {}

  warn(error: ForeignLiveLimitError): void {
    if (this.warned.has(error.ruleIndex)) return;
    this.warned.add(error.ruleIndex);
    this.logger.warn(error.message);
  }

  /** The rule answered with a valid limit: a later foreign value is warned about again. */
  answered(ruleIndex: number): void {
    if (this.warned.size > 0) this.warned.delete(ruleIndex);
  }
}
