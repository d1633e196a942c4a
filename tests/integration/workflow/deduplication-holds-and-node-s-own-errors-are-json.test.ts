// Finding 13 of issue 19, the server side: /v2/batch answers without `deduplicated`, the
// deduplication headers ignored, and Node's own 431/400 answers with no JSON body.
import { connect } from 'node:net';
import { startWorkflowServer, type WorkflowServer } from '../../../mock';
import { startReceiver } from './receiver';

describe("deduplication holds, and Node's own answers are JSON errors", () => {
  let server: WorkflowServer;
  beforeAll(async () => {
    server = await startWorkflowServer({ timeScale: 0.001 });
  });
  afterAll(() => server.close());
  const auth = () => ({ authorization: `Bearer ${server.token}` });

  it('finding 13: /v2/batch answers {messageId, deduplicated} for each message', async () => {
    const receiver = await startReceiver();
    try {
      const send = () => fetch(`${server.url}/v2/batch`, { method: 'POST', headers: auth(), body: JSON.stringify([{ destination: receiver.url, headers: { 'upstash-workflow-runid': 'wfr_batch-dedup' } }]) });
      const first = (await (await send()).json()) as { messageId: string; deduplicated: boolean }[];
      const second = (await (await send()).json()) as { messageId: string; deduplicated: boolean }[];
      expect([first[0].deduplicated, second[0].deduplicated, second[0].messageId === first[0].messageId]).toEqual([false, true, true]);
    } finally {
      await receiver.close();
    }
  });

  it('finding 13: Upstash-Deduplication-Id and Upstash-Content-Based-Deduplication start one run for repeated triggers', async () => {
    const receiver = await startReceiver();
    try {
      const trigger = (headers: Record<string, string>, body = 'same') =>
        fetch(`${server.url}/v2/trigger/${receiver.url}/d`, { method: 'POST', headers: { ...auth(), ...headers }, body }).then((response) => response.json() as Promise<{ workflowRunId: string }>);
      const byId = [await trigger({ 'Upstash-Deduplication-Id': 'order-7' }, 'one'), await trigger({ 'Upstash-Deduplication-Id': 'order-7' }, 'two')];
      const byContent = [await trigger({ 'Upstash-Content-Based-Deduplication': 'true' }), await trigger({ 'Upstash-Content-Based-Deduplication': 'true' })];
      const differs = await trigger({ 'Upstash-Content-Based-Deduplication': 'true' }, 'other');
      expect([byId[0].workflowRunId === byId[1].workflowRunId, byContent[0].workflowRunId === byContent[1].workflowRunId, differs.workflowRunId === byContent[0].workflowRunId]).toEqual([true, true, false]);
      await receiver.waitFor(3);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(receiver.deliveries.map((delivery) => delivery.body.toString()).sort()).toEqual(['one', 'other', 'same']);
    } finally {
      await receiver.close();
    }
  });

  /** Sends raw bytes and answers the raw reply, since fetch will not send what Node refuses. */
  const raw = (request: string | Buffer) =>
    new Promise<string>((resolve, reject) => {
      const url = new URL(server.url);
      const socket = connect(Number(url.port), url.hostname, () => socket.end(request));
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.on('error', reject);
    });

  it('finding 13: Node\'s own 431 for an oversized header block has a JSON {error} body', async () => {
    const reply = await raw(`GET /v2/workflows/runs HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(reply.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'the request headers are larger than the server accepts' });
  });

  it('finding 13: Node\'s own 400 for a request line with bytes HTTP does not allow has a JSON {error} body', async () => {
    const reply = await raw(Buffer.concat([Buffer.from('GET /v2/\x01runs HTTP/1.1\r\nhost: x\r\n\r\n', 'latin1')]));
    expect(reply.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'the request is not valid HTTP/1.1 (HPE_INVALID_URL)' });
  });
});
