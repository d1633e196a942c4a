// Issue 34 finding 7: twenty 2.4 MiB batches to the workflow server, 7 read the 413 and 13 got
// EPIPE, because the server destroyed the connection once its answer was written while the client
// was still sending. Now it closes lingering: the rest of the body is read and thrown away, within
// bounds, so every client reads the answer. Clients run on another thread
// (senders-on-another-thread.ts says why).
import { startWorkflowServer, type WorkflowServer } from '../../../mock';
import { postAtOnceFromAnotherThread } from '../../support/senders-on-another-thread';

describe('oversized batches sent at once', () => {
  let server: WorkflowServer;
  beforeAll(async () => {
    server = await startWorkflowServer();
  });
  afterAll(() => server.close());

  it('each read the 413 at the default 1 MiB limit, none a broken pipe or a reset', async () => {
    const batch = Buffer.from(JSON.stringify([{ destination: 'http://127.0.0.1:1/never', body: 'y'.repeat(2.4 * 1024 * 1024) }]));
    const answers = await postAtOnceFromAnotherThread(`${server.url}/v2/batch`, { authorization: `Bearer ${server.token}` }, batch, 20);
    const refusal = `413 {"error":"request body of ${batch.length} bytes exceeds the limit of ${1024 * 1024} bytes"}`;
    expect({ answers, runs: server.runs.list({}).runs.length }).toEqual({ answers: Array(20).fill(refusal), runs: 0 });
  });
});
