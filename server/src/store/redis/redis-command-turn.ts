// The commands the Redis transport sends in one turn of the event loop (shared/turn-batch.ts), on
// one node, Sentinel's primary or a Cluster: they leave in one write per node (each ready connection
// is corked for the turn, uncorked when it ends) and share one deadline, the plugin's `timeout`, as
// a /pipeline call of the REST transport does. The deadline is armed once, when the turn's commands
// have left, and never again: whatever ioredis does meanwhile (a command in its offline queue while
// it reconnects, sent again after `Connection is closed`, CLUSTERDOWN or TRYAGAIN, waiting for a slot
// map), a command not settled by then is rejected, so the failure mode answers its request.
// Measured before (issue 34 finding 2): a Cluster master killed under load held requests 2.1-3.0 s
// with a 1000 ms timeout, and 2.5 s with 500 ms: ioredis's auto-pipeline sends a command again after
// `Connection is closed` and CLUSTERDOWN (every 100 ms, up to maxRedirections), its `commandTimeout`
// arms the command's timer anew each time, and a node's next auto-pipeline waits for the one in flight.
// Cost: no timer of its own per turn (TurnDeadlines below: one timer for the oldest turn in flight,
// re-armed when it fires, and no reaction on the turn's promises), and on a Cluster one list of its
// masters per turn; no timer per command, where ioredis's `commandTimeout` arms and clears one and
// deletes a property of the command to clear it. Measured ad hoc (one process, 50 single-script
// pipelines per turn, the variants alternating in 16 slices, a loaded machine): on a 3-master Cluster
// 18.4 and 20.3 µs of CPU per command against 23.8 and 25.9 with auto-pipelining and `commandTimeout`.
// A timer armed and cleared per turn, with a reaction to clear it, was a share of what a lone request
// (one per turn, issue 36) cost: under callgrind, a whole decision through the Koa middleware read
// 818k instructions against 945k and 1,038k (two runs of the build before), bare Koa 272k.
import type { Command } from 'ioredis';
import { TurnBatch } from '../../../../shared/turn-batch';

/** What a command that outlived its deadline is rejected with (ioredis's own `commandTimeout`'s words). */
export const TIMED_OUT = 'Command timed out';

/** A connection's stream, as corked for a turn. */
interface Corkable {
  cork(): void;
  uncork(): void;
}

/** Where a turn's commands go: one node or a Cluster. */
export interface CommandTarget {
  /** The streams to cork for the turn: the ready connections the turn's commands may be written to. */
  streamsToCork(): Corkable[];
  /** The client `command` is handed to (which writes it, queues it or routes it); its promise is the answer. */
  readonly client: { sendCommand(command: Command): unknown };
}

/** Rejects each of `commands` ioredis has not settled yet: it outlived its deadline. */
function expire(commands: readonly Command[]): void {
  for (const command of commands) if (!command.isSettled) command.reject(new Error(TIMED_OUT));
}

/** Whether ioredis has settled every one of `commands`. */
function allSettled(commands: readonly Command[]): boolean {
  for (const command of commands) if (!command.isSettled) return false;
  return true;
}

/** A turn's commands once they have left, and when their deadline falls (performance.now()). */
interface SentTurn {
  readonly commands: readonly Command[];
  readonly due: number;
}

/**
 * The deadlines of the turns in flight, oldest first, with one timer armed for the oldest's. The timer
 * is unref'd: a request sent after close() arms it again, and it must not hold the process up for up
 * to `timeoutMs` (issue 34 review); the commands it watches keep the process alive on their own. A turn
 * is not watched as it settles (no reaction on its promises, no clearTimeout): the timer finds the
 * settled ones when it fires, and each new turn drops those at the front, so the list holds the
 * turns from the oldest unsettled one on. With one request per turn (moderate load) that is one
 * timer per `timeoutMs` instead of one armed and cleared per turn, plus a reaction per turn.
 */
class TurnDeadlines {
  private readonly sent: SentTurn[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly timeoutMs: number) {}

  /** Watches `commands`, which have just left: those unsettled `timeoutMs` from now are rejected. */
  watch(commands: readonly Command[]): void {
    while (this.sent.length > 0 && allSettled(this.sent[0].commands)) this.sent.shift();
    this.sent.push({ commands, due: performance.now() + this.timeoutMs });
    if (this.timer === undefined) this.timer = setTimeout(this.expireDue, this.timeoutMs).unref();
  }

  /** Stops the timer (the connection is closed: ioredis rejects what it still holds). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.sent.length = 0;
  }

  private readonly expireDue = (): void => {
    this.timer = undefined;
    const now = performance.now();
    while (this.sent.length > 0) {
      const oldest = this.sent[0];
      if (oldest.due > now && !allSettled(oldest.commands)) break;
      this.sent.shift();
      expire(oldest.commands);
    }
    if (this.sent.length > 0) this.timer = setTimeout(this.expireDue, Math.max(1, this.sent[0].due - now)).unref();
  };
}

export class CommandTurn {
  private corked: Corkable[] | undefined;
  private readonly turn = new TurnBatch<Command>((commands) => this.ended(commands));
  private readonly deadlines: TurnDeadlines;

  constructor(private readonly target: CommandTarget, timeoutMs: number) {
    this.deadlines = new TurnDeadlines(timeoutMs);
  }

  /** Sends `command` with this turn's others; its promise is ioredis's. */
  send(command: Command): Promise<unknown> {
    if (!this.turn.waiting) {
      const streams = this.target.streamsToCork();
      for (const stream of streams) stream.cork();
      this.corked = streams;
    }
    this.turn.add(command);
    void this.target.client.sendCommand(command);
    return command.promise;
  }

  /** Stops watching deadlines: the connection is being closed. */
  close(): void {
    this.deadlines.stop();
  }

  private ended(commands: readonly Command[]): void {
    const corked = this.corked;
    this.corked = undefined;
    if (corked !== undefined) for (const stream of corked) stream.uncork();
    this.deadlines.watch(commands);
  }
}

/** One node (or Sentinel's primary): its connection, corked while it is ready. */
export const nodeTarget = (node: { status: string; stream: Corkable; sendCommand(command: Command): unknown }): CommandTarget => ({
  streamsToCork: () => (node.status === 'ready' ? [node.stream] : []),
  client: node,
});

/**
 * A Cluster: ioredis routes each command to its slot's master and follows MOVED, ASK and TRYAGAIN
 * for it; every ready master's connection is corked for the turn, so each sends its share in one write.
 */
export const clusterTarget = (cluster: { nodes(role: 'master'): Array<{ status: string; stream: Corkable }>; sendCommand(command: Command): unknown }): CommandTarget => ({
  streamsToCork: () => cluster.nodes('master').flatMap((node) => (node.status === 'ready' ? [node.stream] : [])),
  client: cluster,
});
