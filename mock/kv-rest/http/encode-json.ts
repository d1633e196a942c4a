// JSON output: `{"result":...}` / `{"error":...}` envelopes, in plain or base64 string encoding.
// Strings are decoded as UTF-8 (invalid bytes become U+FFFD) unless base64 is asked for.
import { bytesToBase64, bytesToUtf8 } from '../bytes';
import type { Reply } from '../reply';

function encodeString(bytes: string, base64: boolean): string {
  return JSON.stringify(base64 ? bytesToBase64(bytes) : bytesToUtf8(bytes));
}

/** The JSON text of a reply's value; errors nested in arrays (EXEC, scripts) are `{"error":...}`. */
function encodeValue(reply: Reply, base64: boolean): string {
  switch (reply.kind) {
    case 'simple':
    case 'bulk':
      return encodeString(reply.value, base64);
    case 'integer':
      return String(reply.value);
    case 'nil':
    case 'nullArray':
      return 'null';
    case 'error':
      return `{"error":${JSON.stringify(bytesToUtf8(reply.message))}}`;
    case 'array': {
      // A loop rather than map and join: no array of parts for every array reply (a rate limiter's every answer).
      const { items } = reply;
      let text = '[';
      for (let index = 0; index < items.length; index++) text += index === 0 ? encodeValue(items[index], base64) : `,${encodeValue(items[index], base64)}`;
      return `${text}]`;
    }
  }
}

/** One envelope. A whole `OK` status stays readable in base64 mode, as the real API does. */
export function encodeEnvelope(reply: Reply, base64: boolean): string {
  if (reply.kind === 'error') return `{"error":${JSON.stringify(bytesToUtf8(reply.message))}}`;
  const keepPlain = base64 && reply.kind === 'simple' && reply.value === 'OK';
  return `{"result":${encodeValue(reply, base64 && !keepPlain)}}`;
}

export function encodeEnvelopes(replies: readonly Reply[], base64: boolean): string {
  return `[${replies.map((reply) => encodeEnvelope(reply, base64)).join(',')}]`;
}
