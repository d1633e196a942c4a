// What one HTTP response may still hold: the elements and string bytes of every reply of a request,
// a pipeline or transaction as a whole. The HTTP side makes one per request; the engine spends it
// while it builds or reads each reply (the memory engine before building a large one, the redis
// engine while parsing), so a request asking for more is refused once it passes the bound instead
// of after every reply exists: a pipeline of 300 `LRANGE` of a 100,000-item list grew the server to
// 3.7 GB and blocked it 25 s before this (issue 25, finding 3).
import { error, type ErrorReply } from './reply';

export interface ResponseBounds {
  /** Most items of arrays, at every depth, in all replies of one response. */
  readonly maxElements: number;
  /** Most bytes of strings (simple and bulk) in all replies of one response. */
  readonly maxBytes: number;
}

export class ResponseBudget {
  private elements = 0;
  private bytes = 0;
  /** The error of the bound once passed: the whole request is refused with it. */
  private passed: ErrorReply | undefined;

  constructor(private readonly bounds: ResponseBounds) {}

  get refusal(): ErrorReply | undefined {
    return this.passed;
  }

  get elementsLeft(): number {
    return this.bounds.maxElements - this.elements;
  }

  /** The error when `elements` and `bytes` more would pass the bound; nothing is spent. */
  refuse(elements: number, bytes: number): ErrorReply | undefined {
    if (this.passed) return this.passed;
    if (this.elements + elements > this.bounds.maxElements) return this.pass(`${this.bounds.maxElements} elements (maxResponseElements)`);
    if (this.bytes + bytes > this.bounds.maxBytes) return this.pass(`${this.bounds.maxBytes} bytes (maxResponseBytes)`);
    return undefined;
  }

  /** Spends `elements` and `bytes`, or answers the bound's error when they do not fit. */
  spend(elements: number, bytes: number): ErrorReply | undefined {
    const refused = this.refuse(elements, bytes);
    if (refused) return refused;
    this.elements += elements;
    this.bytes += bytes;
    return undefined;
  }

  private pass(bound: string): ErrorReply {
    this.passed = error(`ERR the response exceeds the limit of ${bound}: send fewer commands, or ask for less at once`);
    return this.passed;
  }
}
