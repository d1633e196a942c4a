// The REST API's request limits: the maximum size of one command and the daily command count,
// both answered with an error in the command's slot (and discarding a whole transaction), and the
// maximum size of one response (elements and bytes), spent by the engine while it builds the replies,
// so no pipeline makes the server build an answer without bound.
import type { DailyCount, Engine } from '../engine';
import { error, type ErrorReply } from '../reply';
import { ResponseBudget } from '../response-budget';
import { engineFailure } from './http-error';

export interface LimitOptions {
  /** Largest total size of one command's arguments, in bytes. */
  readonly maxRequestBytes: number;
  /** Commands accepted per UTC day; 0 means no limit. */
  readonly dailyLimit: number;
  /** Largest total size of one response's strings, in bytes. */
  readonly maxResponseBytes: number;
  /** Most array items, at every depth, in one response. */
  readonly maxResponseElements: number;
}

export class RequestLimits {
  constructor(
    private readonly options: LimitOptions,
    /** Keeps the daily count (engine.ts: every server of one store shares it). */
    private readonly engine: Pick<Engine, 'countToday'>,
  ) {}

  /** An error when the command is larger than the maximum request size. */
  checkSize(command: readonly string[]): ErrorReply | undefined {
    let size = 0;
    for (const arg of command) size += arg.length;
    if (size <= this.options.maxRequestBytes) return undefined;
    return error(`ERR max request size exceeded. Limit: ${this.options.maxRequestBytes} bytes, Actual: ${size} bytes`);
  }

  /**
   * Reserves `count` commands of today's allowance, or answers the limit error without reserving.
   * Undefined without a daily limit: there is nothing to wait for.
   */
  reserve(count: number): Promise<ErrorReply | undefined> | undefined {
    return this.options.dailyLimit === 0 ? undefined : this.reserveToday(count);
  }

  private async reserveToday(count: number): Promise<ErrorReply | undefined> {
    let counted: DailyCount;
    try {
      counted = await this.engine.countToday(count, this.options.dailyLimit);
    } catch (failure) {
      throw engineFailure(failure);
    }
    const { accepted, used } = counted;
    return accepted ? undefined : error(`ERR max daily request limit exceeded. Limit: ${this.options.dailyLimit}, Usage: ${used}`);
  }

  /** A new budget for one request's replies: what its response may hold (see response-budget.ts). */
  responseBudget(): ResponseBudget {
    return new ResponseBudget({ maxElements: this.options.maxResponseElements, maxBytes: this.options.maxResponseBytes });
  }
}
