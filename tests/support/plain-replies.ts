// Test support: typed replies (mock/kv-rest/reply.ts) as plain values (strings, numbers, null,
// arrays, `{ error }`), so that expectations read like redis-cli and the memory engine's replies
// compare with redis-server's whole.
import type { Reply } from '../../mock/kv-rest/reply';

export type Plain = string | number | null | { error: string } | Plain[];

export function plain(reply: Reply): Plain {
  switch (reply.kind) {
    case 'simple':
    case 'bulk':
      return reply.value;
    case 'integer':
      return Number(reply.value);
    case 'nil':
    case 'nullArray':
      return null;
    case 'error':
      return { error: reply.message };
    case 'array':
      return reply.items.map(plain);
  }
}
