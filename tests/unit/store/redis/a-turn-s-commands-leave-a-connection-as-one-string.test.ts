// Issue 36: over redis:// a lone request's two commands (its limit script and the deny check's
// SMISMEMBER) left a corked connection through the socket's `writev` of two chunks, where one string
// is one `Socket._write`: some 8.8k instructions of a decision (store/redis/turn-writes.ts). A turn's
// commands now reach the socket as one string, in the order they were sent; a write ioredis makes
// otherwise (a Buffer) keeps its place after what was gathered; a connection ended meanwhile gets
// what was gathered before its end, one destroyed meanwhile nothing; a turn's gathered string is bounded.
import { Writable } from 'node:stream';
import { Command } from 'ioredis';
import { CommandTurn, nodeTarget } from '../../../../server/src/store/redis/redis-command-turn';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A ready node whose socket records each call that reaches it: one string per `_write`, a list per `_writev`. */
function recordingNode() {
  const reached: unknown[] = [];
  const stream = new Writable({
    decodeStrings: false,
    write: (chunk: string | Buffer, _encoding, done) => {
      reached.push(String(chunk));
      done();
    },
    writev: (chunks, done) => {
      reached.push(chunks.map(({ chunk }) => String(chunk)));
      done();
    },
  });
  const node = {
    status: 'ready',
    stream,
    // As ioredis writes a command on a ready connection: its RESP, a string, unless it holds a Buffer.
    sendCommand: (command: Command) => void stream.write(command.toWritable(stream as never)),
  };
  return { node, stream, reached };
}

const resp = (...words: string[]): string => `*${words.length}\r\n${words.map((word) => `$${Buffer.byteLength(word)}\r\n${word}\r\n`).join('')}`;

describe('the commands of one turn on a Redis connection', () => {
  it('reach the socket as one string, in the order they were sent', async () => {
    const { node, reached } = recordingNode();
    const turn = new CommandTurn(nodeTarget(node), 1000);
    void turn.send(new Command('evalsha', ['0123abcd', '1', 'limit-key', '60000']));
    void turn.send(new Command('smismember', ['deny-key', 'ip:192.0.2.1']));
    expect(reached).toEqual([]);
    await nextTurn();
    turn.close();
    expect(reached).toEqual([resp('evalsha', '0123abcd', '1', 'limit-key', '60000') + resp('smismember', 'deny-key', 'ip:192.0.2.1')]);
  });

  it('keep their order around a write that is not a plain string, and write through after the turn', async () => {
    const { node, stream, reached } = recordingNode();
    const turn = new CommandTurn(nodeTarget(node), 1000);
    void turn.send(new Command('get', ['first']));
    stream.write(Buffer.from('a buffer'));
    void turn.send(new Command('get', ['after the buffer']));
    await nextTurn();
    stream.write('after the turn');
    turn.close();
    expect(reached).toEqual([resp('get', 'first'), 'a buffer', resp('get', 'after the buffer'), 'after the turn']);
  });

  it('reach a connection ended during the turn before its end, as a corked one flushed them (review of this change, MED-1)', async () => {
    // ioredis ends the connection with a bare end() when a reply makes it reconnect (Sentinel's old
    // primary answering READONLY): the turn's commands must reach it, be answered READONLY and be sent again.
    const { node, stream, reached } = recordingNode();
    const failures: unknown[] = [];
    stream.on('error', (failure) => failures.push(failure));
    const turn = new CommandTurn(nodeTarget(node), 1000);
    void turn.send(new Command('get', ['before the end']));
    stream.end();
    await nextTurn();
    turn.close();
    expect({ reached, failures }).toEqual({ reached: [resp('get', 'before the end')], failures: [] });
  });

  it('write nothing to a connection destroyed during the turn', async () => {
    const { node, stream, reached } = recordingNode();
    const turn = new CommandTurn(nodeTarget(node), 1000);
    void turn.send(new Command('get', ['before the destruction']));
    stream.destroy();
    await nextTurn();
    turn.close();
    expect(reached).toEqual([]);
  });

  it('leave at once past a bound, so what a turn gathers stays bounded (review of this change, LOW-4)', async () => {
    const { node, reached } = recordingNode();
    const turn = new CommandTurn(nodeTarget(node), 1000);
    const big = 'x'.repeat(1 << 20);
    void turn.send(new Command('set', ['big', big]));
    const reachedWithinTheTurn = [...reached];
    // Closed once the turn has ended: the deadline its end arms is stopped with it, so the command
    // this node never answers is not rejected after the test.
    await nextTurn();
    turn.close();
    expect(reachedWithinTheTurn).toEqual([resp('set', 'big', big)]);
  });
});
