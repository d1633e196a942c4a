// Ends scripts that hold Redis: when a script overruns the engine's time limit, or any reply says
// BUSY, the engine sends SCRIPT KILL itself, so no caller sees BUSY until an operator steps in.
// Redis reads other clients' commands only once a script has run past its busy-reply threshold
// (`busy-reply-threshold`, 5 s by default), so the kill waits on a connection of its own, longer
// than that. A script that has written cannot be killed (Redis answers UNKILLABLE): it runs to
// its end, as on any Redis.
import type { Reply } from '../reply';
import { type RedisAddress, RedisConnection } from './connection';

/** Longest wait for Redis to take the SCRIPT KILL: well past Redis's default busy-reply threshold. */
const KILL_WAIT_MS = 60_000;

export class ScriptKiller {
  private killing: Promise<void> | undefined;
  private connection: RedisConnection | undefined;

  constructor(private readonly address: RedisAddress) {}

  /** Whether a reply says Redis is busy with a script. */
  static saysBusy(reply: Reply): boolean {
    return reply.kind === 'error' && reply.message.startsWith('BUSY');
  }

  /** Sends SCRIPT KILL once at a time; its answer (OK, NOTBUSY, UNKILLABLE) needs no action. */
  kill(): void {
    this.killing ??= this.sendKill().finally(() => (this.killing = undefined));
  }

  /** Stops waiting for a kill under way. */
  close(): void {
    this.connection?.close();
  }

  private async sendKill(): Promise<void> {
    try {
      this.connection = await RedisConnection.open(this.address, KILL_WAIT_MS);
      await this.connection.send([['SCRIPT', 'KILL']]);
    } catch {
      // Redis is down or refused: the next overrun or BUSY reply tries again.
    } finally {
      this.connection?.close();
      this.connection = undefined;
    }
  }
}
