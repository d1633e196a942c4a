// The delivery timeout of one attempt, judged as an answer is read. It is judged after the answer
// that came in by then is read (shared/deadline.ts), then again after each further pass of the event
// loop that read more of it, until a pass reads nothing, for at most one more timeout after its
// timer fired. After the loop was held past the deadline, an answer that came in time can take
// several passes to read: a 256 KiB body was aborted after its first 195 KB, and its retry
// delivered the run twice. A dripping receiver gains at most one pass.
import { Deadline } from '../../shared/deadline';

export class AnswerDeadline {
  private deadline: Deadline;
  private lastJudgementBy: number | undefined;
  private lastReadAt = -Infinity;

  /** `expire` is called once, when the answer is judged late; never after cancel(). */
  constructor(private readonly timeoutMs: number, private readonly expire: () => void) {
    this.deadline = new Deadline(this.judge, timeoutMs);
  }

  /** A part of the answer (its head, a piece of its body) was read. */
  readonly noteRead = (): void => {
    this.lastReadAt = performance.now();
  };

  cancel(): void {
    this.deadline.cancel();
  }

  private readonly judge = (firedAt: number): void => {
    // Set when the timer first fires: the loop may have been held far past the deadline by then.
    this.lastJudgementBy ??= firedAt + this.timeoutMs;
    if (this.lastReadAt > firedAt && performance.now() < this.lastJudgementBy) this.deadline = new Deadline(this.judge, 0);
    else this.expire();
  };
}
