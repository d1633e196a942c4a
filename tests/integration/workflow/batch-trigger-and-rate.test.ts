// The batch trigger endpoint (201 with dedup flags) and flow control by rate per period.
import { startWorkflowServer, type WorkflowServer } from '../../../mock';
import { startReceiver } from './receiver';

describe('workflow batches and rate limits', () => {
  let server: WorkflowServer;
  beforeAll(async () => {
    server = await startWorkflowServer({ timeScale: 0.001 });
  });
  afterAll(() => server.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, ...headers }, body: JSON.stringify(body) });

  it('starts several runs from /v2/batch/trigger and flags a run id seen before', async () => {
    const receiver = await startReceiver();
    try {
      const first = await post('/v2/batch/trigger', [
        { destination: `${receiver.url}/a`, body: 'one', headers: { 'Upstash-Workflow-RunId': 'batch-1' } },
        { destination: `${receiver.url}/b`, body: { two: 2 } },
      ]);
      expect(first.status).toBe(201);
      const runs = (await first.json()) as { workflowRunId: string; workflowCreatedAt: number; deduplicated: boolean }[];
      expect(runs.map((run) => [run.workflowRunId === 'batch-1', run.deduplicated])).toEqual([[true, false], [false, false]]);
      const again = (await (await post('/v2/batch/trigger', [{ destination: `${receiver.url}/a`, headers: { 'Upstash-Workflow-RunId': 'batch-1' } }])).json()) as { deduplicated: boolean }[];
      expect(again[0].deduplicated).toBe(true);
      const deliveries = await receiver.waitFor(2);
      expect(deliveries.map((delivery) => `${delivery.path} ${delivery.body.toString()}`).sort()).toEqual(['/a one', '/b {"two":2}']);
    } finally {
      await receiver.close();
    }
  });

  it('answers 400 for a batch that is not a list of destinations', async () => {
    for (const body of [{}, [], [{ body: 'no destination' }]]) {
      const response = await post('/v2/batch/trigger', body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/batch/);
    }
  });

  it('starts at most `rate` deliveries of a key per period', async () => {
    const receiver = await startReceiver();
    try {
      // The period is scaled like every wait: 1000 s at this server's 0.001 is one second.
      const headers = { 'Upstash-Flow-Control-Key': 'rated', 'Upstash-Flow-Control-Value': 'rate=2, period=1000s' };
      await Promise.all(Array.from({ length: 4 }, () => fetch(`${server.url}/v2/trigger/${receiver.url}`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, ...headers }, body: 'x' })));
      const deliveries = await receiver.waitFor(4);
      const times = deliveries.map((delivery) => delivery.at).sort((a, b) => a - b);
      expect(times[2] - times[0]).toBeGreaterThanOrEqual(950);
    } finally {
      await receiver.close();
    }
  });
});

describe('workflow server limits and answers', () => {
  it('refuses a trigger beyond the cap on active runs with 429, and an oversized body with 413', async () => {
    const small = await startWorkflowServer({ maxActiveRuns: 1, maxBodyBytes: 48 });
    try {
      const trigger = (body: string) =>
        fetch(`${small.url}/v2/trigger/http://127.0.0.1:1/never`, { method: 'POST', headers: { authorization: `Bearer ${small.token}`, 'Upstash-Delay': '1h' }, body });
      expect((await trigger('first')).status).toBe(200);
      const refused = await trigger('second');
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: string }).error).toMatch(/too many runs waiting.*at most 1/);
      const batch = await fetch(`${small.url}/v2/batch/trigger`, { method: 'POST', headers: { authorization: `Bearer ${small.token}` }, body: JSON.stringify([{ destination: 'http://127.0.0.1:1/b' }]) });
      expect(batch.status).toBe(429);
      expect(small.runs.list({}).runs.length).toBe(1);
      const large = await trigger('x'.repeat(64));
      expect(large.status).toBe(413);
      expect(((await large.json()) as { error: string }).error).toBe('request body of 64 bytes exceeds the limit of 48 bytes');
    } finally {
      await small.close();
    }
  });

  it('waits for Retry-After from a failed answer before the next attempt', async () => {
    const server = await startWorkflowServer({ timeScale: 0.001 });
    const receiver = await startReceiver([503, 200], { 'Retry-After': '2' });
    try {
      // Retry-Delay 1 h would stall the test; Retry-After 2 s (2 ms at this scale) must win.
      const response = await fetch(`${server.url}/v2/trigger/${receiver.url}/ra`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, 'Upstash-Retry-Delay': '3600000000' }, body: 'x' });
      expect(response.status).toBe(200);
      const deliveries = await receiver.waitFor(2);
      expect(deliveries.map((delivery) => delivery.headers['upstash-retried'])).toEqual(['0', '1']);
    } finally {
      await receiver.close();
      await server.close();
    }
  });

  it('sends the failure callback to the workflow URL itself when the header is empty', async () => {
    const server = await startWorkflowServer({ timeScale: 0.001 });
    const receiver = await startReceiver([500, 500, 200]);
    try {
      await fetch(`${server.url}/v2/trigger/${receiver.url}/wf`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, 'Upstash-Retries': '1', 'Upstash-Retry-Delay': '1', 'Upstash-Failure-Callback': '' }, body: 'x' });
      const deliveries = await receiver.waitFor(3);
      expect(deliveries[2].path).toBe('/wf');
      expect(deliveries[2].headers['upstash-failure-callback']).toBe('true');
      const payload = JSON.parse(deliveries[2].body.toString()) as { status: number; retried: number; sourceBody: string };
      expect(payload).toMatchObject({ status: 500, retried: 1, sourceBody: Buffer.from('x').toString('base64') });
    } finally {
      await receiver.close();
      await server.close();
    }
  });
});
