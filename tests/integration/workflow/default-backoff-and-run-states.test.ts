// Without Retry-Delay, retries follow the platform's backoff min(86400, e^(2.5 n)) s scaled by the
// time scale; the inspection routes filter runs by state while they wait and after they end.
import { startWorkflowServer, type WorkflowServer } from '../../../mock';
import { startReceiver } from './receiver';

describe('default backoff and run states', () => {
  let server: WorkflowServer;
  beforeAll(async () => {
    server = await startWorkflowServer({ timeScale: 0.001 });
  });
  afterAll(() => server.close());

  const auth = () => ({ authorization: `Bearer ${server.token}` });
  const trigger = (url: string, headers: Record<string, string>) => fetch(`${server.url}/v2/trigger/${url}`, { method: 'POST', headers: { ...auth(), ...headers }, body: 'x' });
  const listIds = async (query: string) =>
    ((await (await fetch(`${server.url}/v2/workflows/runs?${query}`, { headers: auth() })).json()) as { runs: { workflowRunId: string }[] }).runs.map((run) => run.workflowRunId);

  it('spaces retries by e^(2.5 n) seconds times the time scale (12 ms, then 148 ms at 0.001)', async () => {
    const receiver = await startReceiver([500, 500, 200]);
    try {
      await trigger(receiver.url, { 'Upstash-Retries': '2' });
      const [first, second, third] = await receiver.waitFor(3);
      // Timers never fire early, so each gap is at least its scheduled delay (1 ms for rounding).
      expect(second.at - first.at).toBeGreaterThanOrEqual(11);
      expect(third.at - second.at).toBeGreaterThanOrEqual(147);
      expect(third.headers['upstash-retried']).toBe('2');
    } finally {
      await receiver.close();
    }
  });

  it('lists a run as retrying while it waits, and as failed once retries run out', async () => {
    const receiver = await startReceiver([500]);
    try {
      const waiting = (await (await trigger(receiver.url, { 'Upstash-Retries': '1', 'Upstash-Retry-Delay': '3600000', 'Upstash-Label': 'states' })).json()) as { workflowRunId: string };
      const done = (await (await trigger(receiver.url, { 'Upstash-Retries': '0', 'Upstash-Label': 'states' })).json()) as { workflowRunId: string };
      await receiver.waitFor(2);
      const settled = () => server.runs.get(done.workflowRunId)?.state === 'failed' && server.runs.get(waiting.workflowRunId)?.state === 'retrying';
      for (let i = 0; i < 100 && !settled(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await listIds('label=states&state=retrying')).toEqual([waiting.workflowRunId]);
      expect(await listIds('label=states&state=failed')).toEqual([done.workflowRunId]);
      expect(await listIds('label=nothing-here')).toEqual([]);
      const one = await fetch(`${server.url}/v2/workflows/runs/${waiting.workflowRunId}`, { headers: auth() });
      expect(await one.json()).toMatchObject({ state: 'retrying', labels: ['states'], maxRetries: 1, attempts: [{ retried: 0, status: 500 }] });
      const missing = await fetch(`${server.url}/v2/workflows/runs/wfr_unknown`, { headers: auth() });
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ error: 'no run with this id' });
    } finally {
      await receiver.close();
    }
  });
});

describe('workflow server authorization on every route', () => {
  it.each([
    ['POST', '/v2/batch/trigger'],
    ['POST', '/v2/batch'],
    ['GET', '/v2/workflows/runs'],
    ['GET', '/v2/workflows/runs/wfr_x'],
  ])('answers 401 with {error} for %s %s without a valid token', async (method, path) => {
    const server = await startWorkflowServer();
    try {
      const missing = await fetch(`${server.url}${path}`, { method, body: method === 'POST' ? '[]' : undefined });
      expect(missing.status).toBe(401);
      expect(((await missing.json()) as { error: string }).error).toMatch(/missing token/);
      const wrong = await fetch(`${server.url}${path}?qstash_token=${server.token}x`, { method, body: method === 'POST' ? '[]' : undefined });
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toEqual({ error: 'invalid token' });
    } finally {
      await server.close();
    }
  });
});
