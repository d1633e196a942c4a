// The redis engine's RESP2 codec: every reply type survives (simple vs bulk, nil vs null array,
// big integers), whatever way the bytes are split into chunks.
import { encodeCommand, encodeCommands, RespParser, RespProtocolError } from '../../../mock/kv-rest/redis/resp-codec';
import { array, bulk, error, integer, NIL, NULL_ARRAY, simple } from '../../../mock/kv-rest/reply';

const WIRE = '+OK\r\n-ERR bad\r\n:42\r\n:-7\r\n:9223372036854775807\r\n$3\r\nfoo\r\n$0\r\n\r\n$-1\r\n*-1\r\n*0\r\n*2\r\n*1\r\n+in\r\n$2\r\n\r\n\r\n';
const EXPECTED = [
  simple('OK'),
  error('ERR bad'),
  integer(42),
  integer(-7),
  integer(9223372036854775807n),
  bulk('foo'),
  bulk(''),
  NIL,
  NULL_ARRAY,
  array([]),
  array([array([simple('in')]), bulk('\r\n')]),
];

describe('RESP2 codec', () => {
  it('parses every reply type from one chunk', () => {
    expect(new RespParser().feed(Buffer.from(WIRE, 'latin1'))).toEqual(EXPECTED);
  });

  it('parses the same replies when the bytes arrive one at a time', () => {
    const parser = new RespParser();
    const replies = [...Buffer.from(WIRE, 'latin1')].flatMap((byte) => parser.feed(Buffer.from([byte])));
    expect(replies).toEqual(EXPECTED);
  });

  it('keeps binary bulk strings byte for byte', () => {
    const bytes = '\u0000\u00ff\u0080\r\n';
    expect(new RespParser().feed(Buffer.from(`$${bytes.length}\r\n${bytes}\r\n`, 'latin1'))).toEqual([bulk(bytes)]);
  });

  it('refuses bytes that are not RESP2', () => {
    expect(() => new RespParser().feed(Buffer.from('?what\r\n'))).toThrow(RespProtocolError);
  });

  it('encodes commands as arrays of bulk strings', () => {
    expect(encodeCommand(['SET', 'k', 'v\u00ff'])).toBe('*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2\r\nv\u00ff\r\n');
  });

  it('encodes several commands back to back in one byte string', () => {
    expect(encodeCommands([['GET', 'a'], ['PING']])).toBe('*2\r\n$3\r\nGET\r\n$1\r\na\r\n*1\r\n$4\r\nPING\r\n');
    expect(encodeCommands([]).length).toBe(0);
  });

  it('finding 10: parses a large reply fed in small chunks with work linear in its size (bytes copied at most twice)', () => {
    const items = Array.from({ length: 20_000 }, (_, index) => `element-${index}`);
    const wire = Buffer.from(`*${items.length}\r\n${items.map((item) => `$${item.length}\r\n${item}\r\n`).join('')}+${'m'.repeat(100_000)}\r\n$200000\r\n${'b'.repeat(200_000)}\r\n`, 'latin1');
    const concat = jest.spyOn(Buffer, 'concat');
    try {
      const parser = new RespParser();
      const replies: unknown[] = [];
      for (let start = 0; start < wire.length; start += 64) replies.push(...parser.feed(wire.subarray(start, start + 64)));
      const copied = concat.mock.results.reduce((total, result) => total + (result.value as Buffer).length, 0);
      expect(replies).toEqual([array(items.map(bulk)), simple('m'.repeat(100_000)), bulk('b'.repeat(200_000))]);
      expect(copied).toBeLessThanOrEqual(2 * wire.length);
    } finally {
      concat.mockRestore();
    }
  });
});
