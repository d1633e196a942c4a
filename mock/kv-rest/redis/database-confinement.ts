// Keeps the REST API's commands inside the Redis database the engine serves (the URL's /db), where
// the ACL cannot: Redis's ACL rules name commands, not databases. FLUSHALL would empty every
// database of the Redis, so the REST API's FLUSHALL empties this one (FLUSHDB, as for a client of
// a single-database service) and the engine's users may not run FLUSHALL itself, in scripts
// neither. `COPY ... DB <n>` into another database is refused, as the memory engine refuses it.
// Inside scripts, COPY's DB option remains out of reach of this check (see docs/security.md).
import { error, type ErrorReply } from '../reply';
import type { ResolvedCommand } from '../resolved-command';

/** Commands the engine's users may not run although the REST API serves them, for the reason above. */
export const BEYOND_THE_DATABASE: ReadonlySet<string> = new Set(['flushall']);

/** The arguments to send for `command` so that it stays in database `db`, or the refusal. */
export function confineToDatabase({ args, spec }: ResolvedCommand, db: number): readonly string[] | ErrorReply {
  if (spec.name === 'flushall') return ['FLUSHDB', ...args.slice(1)];
  if (spec.name !== 'copy') return args;
  for (let index = 3; index < args.length - 1; index++) {
    if (args[index].toLowerCase() === 'db' && Number(args[index + 1]) !== db) return error('ERR DB index is out of range');
  }
  return args;
}
