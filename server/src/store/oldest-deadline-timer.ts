// One deadline timer for everything a transport has in flight (issue 36): a Redis turn's commands
// (redis/redis-command-turn.ts) or a REST call (rest/rest-connections.ts). Each watched item is due
// `timeoutMs` after it left, so the oldest is due first, and one timer armed for the oldest's deadline
// serves them all. An item is not unwatched as it settles (no clearTimeout, no reaction on its
// promise): the timer finds the settled ones when it fires, and each new item drops those at the
// front, so the list holds the items from the oldest unsettled one on. With one request per turn
// (moderate load) that is one timer per `timeoutMs` instead of one armed and cleared per request:
// under callgrind a decision over redis:// read 818k instructions against 945k and 1,038k with a timer
// per turn (two runs of that build), bare Koa 272k.
// The timer is unref'd: what is in flight keeps the process alive by itself (its socket), and a
// request sent after close() (which arms it again) must not hold the process up for up to
// `timeoutMs` (issue 34 review).
// Deadlines are judged after the replies that came in by then are read (../../../shared/deadline.ts).

import { Deadline } from '../../../shared/deadline';

interface Watched<T> {
  readonly item: T;
  /** performance.now() at which it is due. */
  readonly due: number;
}

export class OldestDeadlineTimer<T> {
  private readonly watched: Array<Watched<T>> = [];
  /** Armed for the oldest watched item, until its judgement (expireDue). */
  private deadline: Deadline | undefined;

  constructor(
    private readonly timeoutMs: number,
    /** Whether `item` no longer needs its deadline (answered or failed). */
    private readonly isSettled: (item: T) => boolean,
    /** Fails `item`, unsettled at its deadline. */
    private readonly expire: (item: T) => void,
  ) {}

  /** Watches `item`, which has just left: unsettled `timeoutMs` from now, it is expired. */
  watch(item: T): void {
    while (this.watched.length > 0 && this.isSettled(this.watched[0].item)) this.watched.shift();
    this.watched.push({ item, due: performance.now() + this.timeoutMs });
    this.deadline ??= new Deadline(this.expireDue, this.timeoutMs);
  }

  /** Stops the timer and forgets what it watched (the transport is closed: it fails what it still holds). */
  stop(): void {
    this.deadline?.cancel();
    this.deadline = undefined;
    this.watched.length = 0;
  }

  /** Expires what was due by `firedAt` and is still unanswered; watches the rest. */
  private readonly expireDue = (firedAt: number): void => {
    this.deadline = undefined;
    while (this.watched.length > 0) {
      const oldest = this.watched[0];
      if (oldest.due > firedAt && !this.isSettled(oldest.item)) break;
      this.watched.shift();
      if (!this.isSettled(oldest.item)) this.expire(oldest.item);
    }
    if (this.watched.length > 0) this.deadline = new Deadline(this.expireDue, Math.max(1, this.watched[0].due - performance.now()));
  };
}
