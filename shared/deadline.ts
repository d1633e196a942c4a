// A deadline judged after the I/O that came in by the time it fell due has been read. When an event
// loop is held past a deadline (a long synchronous handler, a full collection of a large heap), Node
// runs the due timers first on its return, before the poll phase reads the sockets, so a reply that
// came in time was judged missing: failed as an outage and counted against the store's circuit
// breaker (stop 41's CI: "redis-server did not answer within 2000 ms", no reply late). Here the timer
// only notes when it fired; the judgement runs in the check phase after that poll phase and is given
// that moment, so what fell due later (a handler held the loop in the poll phase itself, and the
// reply arrived after the poll had read the sockets) is judged at a later turn, after its own poll.
// Used by every deadline on I/O: the plugin's transports (store/oldest-deadline-timer.ts,
// store/redis/redis-requester.ts, store/redis/redis-connection.ts) and its GraphQL body read
// (graphql/graphql-request.ts), the key-value server's connections to redis-server and their
// streams (mock/kv-rest/redis/connection.ts, redis-engine.ts) and the workflow server's delivery
// (mock/workflow/answer-deadline.ts).

export class Deadline {
  private readonly timer: NodeJS.Timeout;
  private judgement: NodeJS.Immediate | undefined;

  /**
   * Calls `judge` with the performance.now() at which the timer fired, `ms` from now, once the
   * replies that came in by then are read. Unref'd: what it watches keeps the process alive itself.
   */
  constructor(judge: (firedAt: number) => void, ms: number) {
    this.timer = setTimeout(() => {
      this.judgement = setImmediate(judge, performance.now());
    }, ms).unref();
  }

  /** No judgement, even when the timer has fired already. */
  cancel(): void {
    clearTimeout(this.timer);
    clearImmediate(this.judgement);
  }
}
