// Issue 34 finding 7: a refused large body reached most clients as a broken pipe, not as the 413
// (ten 40 MiB commands: 2 read the 413, 8 got EPIPE), because the server destroyed the connection
// once its answer was written while the client was still sending. Now it closes lingering: the rest
// of the body is read and thrown away, within bounds, so every client reads the answer. Clients run
// on another thread (senders-on-another-thread.ts says why); a small limit keeps the bodies small.
import { startKvRestServer, type KvRestServer } from '../../../mock';
import { postAtOnceFromAnotherThread, upstashSetsAtOnceFromAnotherThread } from '../../support/senders-on-another-thread';

const MAX_REQUEST_BYTES = 64 * 1024;
const BODY_LIMIT = MAX_REQUEST_BYTES * 4;
const FOUR_MIB = 4 * 1024 * 1024;

describe('oversized commands sent at once', () => {
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startKvRestServer({ maxRequestBytes: MAX_REQUEST_BYTES });
  });
  afterAll(() => server.close());

  it('each read the 413 from plain HTTP clients streaming 4 MiB, none a broken pipe or a reset', async () => {
    const answers = await postAtOnceFromAnotherThread(`${server.url}/set/big`, { authorization: `Bearer ${server.token}` }, Buffer.alloc(FOUR_MIB, 'x'), 10);
    const refusal = `413 {"error":"ERR request body of ${FOUR_MIB} bytes exceeds the limit of ${BODY_LIMIT} bytes"}`;
    expect(answers).toEqual(Array(10).fill(refusal));
  });

  it("each reach @upstash/redis's caller as the server's error, with no retry of a network error", async () => {
    const { outcomes, retries } = await upstashSetsAtOnceFromAnotherThread(server.url, server.token, FOUR_MIB, 10);
    // The client sends ["set","big","x..."]: the value in a JSON array.
    const refusal = `UpstashError: ERR request body of ${FOUR_MIB + JSON.stringify(['set', 'big', '']).length} bytes exceeds the limit of ${BODY_LIMIT} bytes`;
    expect({ outcomes, retries }).toEqual({ outcomes: Array(10).fill(refusal), retries: 0 });
  });

  it('leave the server serving', async () => {
    const response = await fetch(`${server.url}/ping`, { headers: { authorization: `Bearer ${server.token}` } });
    expect(await response.json()).toEqual({ result: 'PONG' });
  });
});
