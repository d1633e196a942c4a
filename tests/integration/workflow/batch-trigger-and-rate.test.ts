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
      const headers = { 'Upstash-Flow-Control-Key': 'rated', 'Upstash-Flow-Control-Value': 'rate=2, period=1s' };
      await Promise.all(Array.from({ length: 4 }, () => fetch(`${server.url}/v2/trigger/${receiver.url}`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, ...headers }, body: 'x' })));
      const deliveries = await receiver.waitFor(4);
      const times = deliveries.map((delivery) => delivery.at).sort((a, b) => a - b);
      expect(times[2] - times[0]).toBeGreaterThanOrEqual(950);
    } finally {
      await receiver.close();
    }
  });
});
