// The redis engine's RESP2 parser reads numbers' lines from their bytes (resp-codec.ts: no string,
// no indexOf, for `:`, `$` and `*` lines of up to 15 digits) and every other line from its text.
// Property: any reply Redis can write, of any type and nesting, with integers of every size (past
// 2^53 too), split into chunks anywhere, reads back as the reply that was written.
import fc from 'fast-check';
import { RespParser } from '../../../mock/kv-rest/redis/resp-codec';
import { array, bulk, error, integer, NIL, NULL_ARRAY, simple, type Reply } from '../../../mock/kv-rest/reply';

/** RESP2 as Redis writes it. */
function wire(reply: Reply): string {
  switch (reply.kind) {
    case 'simple':
      return `+${reply.value}\r\n`;
    case 'error':
      return `-${reply.message}\r\n`;
    case 'integer':
      return `:${reply.value}\r\n`;
    case 'bulk':
      return `$${reply.value.length}\r\n${reply.value}\r\n`;
    case 'nil':
      return '$-1\r\n';
    case 'nullArray':
      return '*-1\r\n';
    case 'array':
      return `*${reply.items.length}\r\n${reply.items.map(wire).join('')}`;
  }
}

/** A line's text: any byte but CR and LF. */
const lineText = fc.string({ unit: fc.integer({ min: 0, max: 255 }).filter((code) => code !== 10 && code !== 13).map((code) => String.fromCharCode(code)), maxLength: 30 });
const bytes = fc.string({ unit: fc.integer({ min: 0, max: 255 }).map((code) => String.fromCharCode(code)), maxLength: 40 });
const integers = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((value) => (Number.isSafeInteger(Number(value)) ? Number(value) : value)),
);

const { reply } = fc.letrec<{ reply: Reply }>((tie) => ({
  reply: fc.oneof(
    { depthSize: 'small' },
    lineText.map(simple),
    lineText.map((text) => error(`ERR ${text}`)),
    integers.map(integer),
    bytes.map(bulk),
    fc.constant(NIL),
    fc.constant(NULL_ARRAY),
    fc.array(tie('reply'), { maxLength: 5 }).map(array),
  ),
}));

describe('the RESP2 parser', () => {
  it('reads back any replies, split into chunks anywhere', () => {
    fc.assert(
      fc.property(fc.array(reply, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 10 }), (replies, cutSeeds) => {
        const bytesOnWire = Buffer.from(replies.map(wire).join(''), 'latin1');
        const cuts = [...new Set(cutSeeds.map((seed) => seed % bytesOnWire.length))].sort((a, b) => a - b);
        const parser = new RespParser();
        const read: Reply[] = [];
        let from = 0;
        for (const cut of [...cuts, bytesOnWire.length]) {
          read.push(...parser.feed(bytesOnWire.subarray(from, cut)));
          from = cut;
        }
        expect(read).toEqual(replies);
      }),
      { numRuns: 500 },
    );
  });
});
