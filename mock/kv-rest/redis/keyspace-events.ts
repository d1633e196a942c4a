// Keyspace notifications through the REST API's pub/sub streams. When a Redis's operator turns them
// on (`notify-keyspace-events`, which applications turn on for expiry events), Redis publishes an
// event for every key written in every database, on `__keyspace@<db>__:<key>` (the event is the
// message) and `__keyevent@<db>__:<event>` (the key is the message). A REST caller is kept to the
// database the engine serves (database-confinement.ts), so its streams carry that database's events
// only: not the engine's private one, not other applications'. The Read Only token may not list keys
// (KEYS, SCAN), so its streams carry none (trust round 5 finding 4).

const KEYSPACE_PREFIXES = ['__keyspace@', '__keyevent@'];

/** The channel of a `message` or `pmessage` event; undefined for the other replies (subscribe confirmations). */
function channelOf(fields: readonly string[]): string | undefined {
  if (fields[0] === 'message') return fields[1];
  return fields[0] === 'pmessage' ? fields[2] : undefined;
}

/** Whether a stream of a caller of database `db` (`readOnly`: the Read Only token) may carry the pub/sub reply `fields`. */
export function streamMayCarry(fields: readonly string[], db: number, readOnly: boolean): boolean {
  const channel = channelOf(fields);
  if (channel === undefined || !KEYSPACE_PREFIXES.some((prefix) => channel.startsWith(prefix))) return true;
  return !readOnly && KEYSPACE_PREFIXES.some((prefix) => channel.startsWith(`${prefix}${db}__:`));
}
