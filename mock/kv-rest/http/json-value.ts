// The replies' JSON envelopes as values: what JSON.parse(encodeEnvelope(reply, false)) gives (see
// encode-json.ts), built without the text in between. The embedded store hands its answers to the
// plugin in-process, where writing JSON text only to parse it again cost every command a round trip
// through the serializer. Plain encoding only (no base64): the plugin's requesters never ask for it.
import { bytesToUtf8 } from '../bytes';
import type { Reply } from '../reply';

/** `{ error }` as JSON carries it. */
const errorValue = (message: string): { error: string } => ({ error: bytesToUtf8(message) });

/**
 * A reply's value. JSON has one number type: a bigint becomes the nearest double and -0 becomes 0,
 * exactly as parsing the integer's decimal text would.
 */
function jsonValue(reply: Reply): unknown {
  switch (reply.kind) {
    case 'simple':
    case 'bulk':
      return bytesToUtf8(reply.value);
    case 'integer':
      return typeof reply.value === 'bigint' ? Number(reply.value) : reply.value + 0;
    case 'nil':
    case 'nullArray':
      return null;
    case 'error':
      return errorValue(reply.message);
    case 'array':
      return reply.items.map(jsonValue);
  }
}

export function envelopeValue(reply: Reply): { result: unknown } | { error: string } {
  return reply.kind === 'error' ? errorValue(reply.message) : { result: jsonValue(reply) };
}

export function envelopeValues(replies: readonly Reply[]): Array<{ result: unknown } | { error: string }> {
  return replies.map(envelopeValue);
}
