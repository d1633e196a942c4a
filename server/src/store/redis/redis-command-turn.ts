// The commands the Redis transport sends in one turn of the event loop (shared/turn-batch.ts), on
// one node, Sentinel's primary or a Cluster: they leave in one write per node (each ready connection
// gathers the turn's writes and writes them as one string when it ends, turn-writes.ts) and share
// one deadline, the plugin's `timeout`, as a /pipeline call of the REST transport does. The
// deadline is armed once, when the turn's commands have left, and never again: whatever ioredis
// does meanwhile (a command in its offline queue while it reconnects, sent again after `Connection
// is closed`, CLUSTERDOWN or TRYAGAIN, waiting for a slot map), a command not settled by then is
// rejected, so the failure mode answers its request.
// Measured before (issue 34 finding 2): a Cluster master killed under load held requests 2.1-3.0 s
// with a 1000 ms timeout, and 2.5 s with 500 ms: ioredis's auto-pipeline sends a command again after
// `Connection is closed` and CLUSTERDOWN (every 100 ms, up to maxRedirections), its `commandTimeout`
// arms the command's timer anew each time, and a node's next auto-pipeline waits for the one in flight.
// Cost: no timer of its own per turn (../oldest-deadline-timer.ts: one timer for the oldest turn in
// flight, re-armed when it fires, and no reaction on the turn's promises), and on a Cluster one list of its
// masters per turn; no timer per command, where ioredis's `commandTimeout` arms and clears one and
// deletes a property of the command to clear it. Measured ad hoc (one process, 50 single-script
// pipelines per turn, the variants alternating in 16 slices, a loaded machine): on a 3-master Cluster
// 18.4 and 20.3 µs of CPU per command against 23.8 and 25.9 with auto-pipelining and `commandTimeout`.
// A timer armed and cleared per turn, with a reaction to clear it, was a share of what a lone request
// (one per turn, issue 36) cost: under callgrind, a whole decision through the Koa middleware read
// 818k instructions against 945k and 1,038k (two runs of the build before), bare Koa 272k.
import type { Command } from 'ioredis';
import { TurnBatch } from '../../../../shared/turn-batch';
import { OldestDeadlineTimer } from '../oldest-deadline-timer';
import { turnWritesOf } from './turn-writes';
import type { Writable } from 'node:stream';

/** What a command that outlived its deadline is rejected with (ioredis's own `commandTimeout`'s words). */
export const TIMED_OUT = 'Command timed out';

/** A connection's writes, held for a turn (turn-writes.ts). */
interface HeldWrites {
  cork(): void;
  uncork(): void;
}

/** Where a turn's commands go: one node or a Cluster. */
export interface CommandTarget {
  /** The writes to hold for the turn: those of the ready connections the turn's commands may be written to. */
  writesToHold(): HeldWrites[];
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

export class CommandTurn {
  private held: HeldWrites[] | undefined;
  private readonly turn = new TurnBatch<Command>((commands) => this.ended(commands));
  private readonly deadlines: OldestDeadlineTimer<readonly Command[]>;

  constructor(private readonly target: CommandTarget, timeoutMs: number) {
    this.deadlines = new OldestDeadlineTimer(timeoutMs, allSettled, expire);
  }

  /** Sends `command` with this turn's others; its promise is ioredis's. */
  send(command: Command): Promise<unknown> {
    if (!this.turn.waiting) {
      const writes = this.target.writesToHold();
      for (const connection of writes) connection.cork();
      this.held = writes;
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
    const held = this.held;
    this.held = undefined;
    if (held !== undefined) for (const connection of held) connection.uncork();
    this.deadlines.watch(commands);
  }
}

/** One node (or Sentinel's primary): its connection's writes, held for the turn while it is ready. */
export const nodeTarget = (node: { status: string; stream: Writable; sendCommand(command: Command): unknown }): CommandTarget => ({
  writesToHold: () => (node.status === 'ready' ? [turnWritesOf(node.stream)] : []),
  client: node,
});

/**
 * A Cluster: ioredis routes each command to its slot's master and follows MOVED, ASK and TRYAGAIN
 * for it; every ready master's writes are held for the turn, so each sends its share in one write.
 */
export const clusterTarget = (cluster: { nodes(role: 'master'): Array<{ status: string; stream: Writable }>; sendCommand(command: Command): unknown }): CommandTarget => ({
  writesToHold: () => cluster.nodes('master').flatMap((node) => (node.status === 'ready' ? [turnWritesOf(node.stream)] : [])),
  client: cluster,
});
