// RESP2 output (`Upstash-Response-Format: resp2`): the raw bytes a TCP client of Redis would read.
import { bytesToBuffer } from '../bytes';
import type { Reply } from '../reply';

function encodeInto(reply: Reply, parts: string[]): void {
  switch (reply.kind) {
    case 'simple':
      parts.push(`+${reply.value}\r\n`);
      return;
    case 'error':
      parts.push(`-${reply.message}\r\n`);
      return;
    case 'integer':
      parts.push(`:${reply.value}\r\n`);
      return;
    case 'bulk':
      parts.push(`$${reply.value.length}\r\n${reply.value}\r\n`);
      return;
    case 'nil':
      parts.push('$-1\r\n');
      return;
    case 'nullArray':
      parts.push('*-1\r\n');
      return;
    case 'array':
      parts.push(`*${reply.items.length}\r\n`);
      for (const item of reply.items) encodeInto(item, parts);
  }
}

/** The replies' RESP2 bytes, one after the other. Byte strings map 1:1 onto bytes (latin1). */
export function encodeResp2(replies: readonly Reply[]): Buffer {
  const parts: string[] = [];
  for (const reply of replies) encodeInto(reply, parts);
  return bytesToBuffer(parts.join(''));
}
