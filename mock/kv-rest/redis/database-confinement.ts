// Keeps the REST API's commands inside the Redis database the engine serves (the URL's /db), where
// the ACL cannot: Redis's ACL rules name commands, not databases. FLUSHALL would empty every
// database of the Redis, so the REST API's FLUSHALL empties this one (FLUSHDB, as for a client of
// a single-database service) and the engine's users may not run FLUSHALL itself, in scripts
// neither. `COPY ... DB <n>` into another database is refused, as the memory engine refuses it.
// Inside scripts, COPY's DB option remains out of reach of this check (see the README).
import { error, type ErrorReply } from '../reply';

/** Commands the engine's users may not run although the REST API serves them, for the reason above. */
export const BEYOND_THE_DATABASE: ReadonlySet<string> = new Set(['flushall']);

/** The command to send for `command` so that it stays in database `db`, or the refusal. */
export function confineToDatabase(command: readonly string[], db: number): readonly string[] | ErrorReply {
  const name = command[0].toLowerCase();
  if (name === 'flushall') return ['FLUSHDB', ...command.slice(1)];
  if (name !== 'copy') return command;
  for (let index = 3; index < command.length - 1; index++) {
    if (command[index].toLowerCase() === 'db' && Number(command[index + 1]) !== db) return error('ERR DB index is out of range');
  }
  return command;
}
