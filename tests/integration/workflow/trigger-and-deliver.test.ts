// The workflow trigger server end to end: real deliveries to real receivers, verified by
// @upstash/qstash's Receiver, retries with Retry-Delay, the failure callback, dedup, labels,
// inspection, the official @upstash/workflow client, and every 400/401.
import { Receiver as SignatureReceiver } from '@upstash/qstash';
import { Client as WorkflowClient } from '@upstash/workflow';
import { startWorkflowServer, type WorkflowServer } from '../../../mock';
import { startReceiver } from './receiver';

describe('workflow trigger server', () => {
  let server: WorkflowServer;
  beforeAll(async () => {
    server = await startWorkflowServer({ timeScale: 0.001, deliveryTimeoutMs: 500 });
  });
  afterAll(() => server.close());

  const trigger = (destination: string, headers: Record<string, string> = {}, body: string | Buffer = '{"hello":"world"}') =>
    fetch(`${server.url}/v2/trigger/${destination}`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', ...headers }, body });

  it('delivers the body unchanged with forwarded, run and signature headers that the official Receiver accepts', async () => {
    const receiver = await startReceiver();
    try {
      const response = await trigger(`${receiver.url}/workflow?x=1`, { 'Upstash-Forward-X-Custom': 'yes', 'Upstash-Workflow-RunId': 'run-1', 'Upstash-Label': 'alpha,beta' });
      expect(response.status).toBe(200);
      const answer = (await response.json()) as { workflowRunId: string; workflowCreatedAt: number };
      expect(answer.workflowRunId).toBe('run-1');
      expect(Math.abs(answer.workflowCreatedAt - Date.now())).toBeLessThan(10_000);
      const [delivery] = await receiver.waitFor(1);
      expect(delivery.path).toBe('/workflow?x=1');
      expect(delivery.body.toString()).toBe('{"hello":"world"}');
      expect(delivery.headers).toMatchObject({ 'x-custom': 'yes', 'upstash-workflow-runid': 'run-1', 'upstash-retried': '0', 'content-type': 'application/json', 'upstash-label': 'alpha,beta' });
      const verifier = new SignatureReceiver({ currentSigningKey: server.currentSigningKey, nextSigningKey: server.nextSigningKey });
      await expect(verifier.verify({ signature: String(delivery.headers['upstash-signature']), body: delivery.body.toString(), url: `${receiver.url}/workflow?x=1` })).resolves.toBe(true);
      await expect(verifier.verify({ signature: String(delivery.headers['upstash-signature']), body: 'tampered' })).rejects.toThrow();
    } finally {
      await receiver.close();
    }
  });

  it('keeps binary bodies byte for byte', async () => {
    const receiver = await startReceiver();
    try {
      const bytes = Buffer.from([0, 255, 128, 10, 13]);
      await trigger(receiver.url, { 'content-type': 'application/octet-stream' }, bytes);
      const [delivery] = await receiver.waitFor(1);
      expect(delivery.body).toEqual(bytes);
    } finally {
      await receiver.close();
    }
  });

  it('retries failed deliveries after the Retry-Delay, then calls the failure callback with its headers', async () => {
    const receiver = await startReceiver([500]);
    const callback = await startReceiver();
    try {
      const response = await trigger(receiver.url, {
        'Upstash-Retries': '2',
        'Upstash-Retry-Delay': '(retried + 1) * 100000',
        'Upstash-Failure-Callback': `${callback.url}/failed`,
        'Upstash-Failure-Callback-Forward-X-Reason': 'audit',
      });
      const { workflowRunId } = (await response.json()) as { workflowRunId: string };
      const attempts = await receiver.waitFor(3);
      expect(attempts.map((attempt) => attempt.headers['upstash-retried'])).toEqual(['0', '1', '2']);
      expect(attempts[2].at - attempts[1].at).toBeGreaterThanOrEqual(attempts[1].at - attempts[0].at - 20);
      const [message] = await callback.waitFor(1);
      expect(message.headers['x-reason']).toBe('audit');
      const payload = JSON.parse(message.body.toString());
      expect(payload).toMatchObject({ status: 500, retried: 2, maxRetries: 2, workflowRunId, url: receiver.url });
      expect(Buffer.from(payload.sourceBody, 'base64').toString()).toBe('{"hello":"world"}');
      const run = (await (await fetch(`${server.url}/v2/workflows/runs/${workflowRunId}`, { headers: { authorization: `Bearer ${server.token}` } })).json()) as { state: string; attempts: { status: number }[] };
      expect(run.state).toBe('failed');
      expect(run.attempts.map((attempt) => attempt.status)).toEqual([500, 500, 500]);
      for (let i = 0; i < 50 && server.runs.get(workflowRunId)?.failureCallback?.state !== 'delivered'; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(server.runs.get(workflowRunId)?.failureCallback).toMatchObject({ url: `${callback.url}/failed`, state: 'delivered', status: 200 });
    } finally {
      await receiver.close();
      await callback.close();
    }
  });

  it('stops retrying on 489 with Upstash-NonRetryable-Error', async () => {
    const receiver = await startReceiver([489], { 'Upstash-NonRetryable-Error': 'true' });
    try {
      const { workflowRunId } = (await (await trigger(receiver.url, { 'Upstash-Retries': '3' })).json()) as { workflowRunId: string };
      await receiver.waitFor(1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(receiver.deliveries).toHaveLength(1);
      expect(server.runs.get(workflowRunId)?.state).toBe('failed');
    } finally {
      await receiver.close();
    }
  });

  it('waits for Delay, lets Not-Before win over it, and does not start a run id twice', async () => {
    const receiver = await startReceiver();
    try {
      const started = Date.now();
      await trigger(receiver.url, { 'Upstash-Delay': '1m' });
      await trigger(receiver.url, { 'Upstash-Delay': '1d', 'Upstash-Not-Before': String(Math.floor(Date.now() / 1000)) });
      const deliveries = await receiver.waitFor(2);
      expect(deliveries[1].at - started).toBeGreaterThanOrEqual(55);
      const once = { 'Upstash-Workflow-RunId': 'only-once' };
      const [first, second] = await Promise.all([trigger(receiver.url, once), trigger(receiver.url, once)]);
      const ids = [(await first.json()) as { workflowRunId: string }, (await second.json()) as { workflowRunId: string }].map((answer) => answer.workflowRunId);
      expect(ids).toEqual(['only-once', 'only-once']);
      await receiver.waitFor(3);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(receiver.deliveries).toHaveLength(3);
    } finally {
      await receiver.close();
    }
  });

  it('keeps at most `parallelism` deliveries of one flow-control key in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const { createServer } = await import('node:http');
    const slow = createServer((request, response) => {
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight--;
        response.end('ok');
      }, 30);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(slow.address() as { port: number }).port}`;
    try {
      const ids = await Promise.all(
        Array.from({ length: 6 }, () => trigger(url, { 'Upstash-Flow-Control-Key': 'k', 'Upstash-Flow-Control-Value': 'parallelism=2' }).then((r) => r.json() as Promise<{ workflowRunId: string }>)),
      );
      for (let i = 0; i < 100 && ids.some(({ workflowRunId }) => server.runs.get(workflowRunId)?.state !== 'succeeded'); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(ids.every(({ workflowRunId }) => server.runs.get(workflowRunId)?.state === 'succeeded')).toBe(true);
      expect(most).toBe(2);
    } finally {
      slow.close();
    }
  });

  it('lists runs by label and state', async () => {
    const receiver = await startReceiver();
    try {
      await trigger(receiver.url, { 'Upstash-Label': 'reports' });
      await receiver.waitFor(1);
      const listed = (await (await fetch(`${server.url}/v2/workflows/runs?label=reports`, { headers: { authorization: `Bearer ${server.token}` } })).json()) as { runs: { labels: string[] }[] };
      expect(listed.runs.length).toBeGreaterThanOrEqual(1);
      expect(listed.runs.every((run) => run.labels.includes('reports'))).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('works with the official @upstash/workflow client', async () => {
    const receiver = await startReceiver();
    try {
      const client = new WorkflowClient({ baseUrl: server.url, token: server.token });
      const { workflowRunId } = await client.trigger({ url: `${receiver.url}/api/workflow`, body: { order: 7 } });
      const [delivery] = await receiver.waitFor(1);
      expect(delivery.headers['upstash-workflow-runid']).toBe(workflowRunId);
      expect(JSON.parse(delivery.body.toString())).toEqual({ order: 7 });
    } finally {
      await receiver.close();
    }
  });

  it.each([
    [{ 'Upstash-Retries': 'three' }, 'http://127.0.0.1:1', /Upstash-Retries must be a whole number/],
    [{ 'Upstash-Delay': '10 minutes' }, 'http://127.0.0.1:1', /Upstash-Delay must be <number><unit>/],
    [{ 'Upstash-Failure-Callback': 'ftp://x' }, 'http://127.0.0.1:1', /invalid Upstash-Failure-Callback: endpoint has invalid scheme/],
    [{ 'Upstash-Flow-Control-Key': 'k' }, 'http://127.0.0.1:1', /must be sent together/],
    [{ 'Upstash-Flow-Control-Key': 'k', 'Upstash-Flow-Control-Value': 'speed=1' }, 'http://127.0.0.1:1', /unknown setting "speed"/],
    [{ 'Upstash-Retry-Delay': 'eval("1")' }, 'http://127.0.0.1:1', /unknown function "eval"/],
    [{ 'Upstash-Not-Before': 'tomorrow' }, 'http://127.0.0.1:1', /unix time in seconds/],
    [{}, 'example.com/no-scheme', /invalid destination url/],
  ])('answers 400 with a clear error for %j', async (headers, destination, message) => {
    const response = await trigger(destination, headers);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(message);
  });

  it('answers 401 without a token or with a wrong one, and accepts the query tokens', async () => {
    expect((await fetch(`${server.url}/v2/trigger/http://127.0.0.1:1`, { method: 'POST' })).status).toBe(401);
    expect((await fetch(`${server.url}/v2/trigger/http://127.0.0.1:1`, { method: 'POST', headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    const receiver = await startReceiver();
    try {
      for (const name of ['qstash_token', 'svc_token']) {
        expect((await fetch(`${server.url}/v2/trigger/${receiver.url}/q?keep=1&${name}=${server.token}`, { method: 'POST', body: 'x' })).status).toBe(200);
      }
      const deliveries = await receiver.waitFor(2);
      expect(deliveries.map((delivery) => delivery.path)).toEqual(['/q?keep=1', '/q?keep=1']);
    } finally {
      await receiver.close();
    }
  });
});

describe('workflow trigger server with the seed header prefix', () => {
  it('reads Svc- headers when started with prefix Svc', async () => {
    const server = await startWorkflowServer({ prefix: 'Svc', timeScale: 0.001 });
    const receiver = await startReceiver();
    try {
      await fetch(`${server.url}/v2/trigger/${receiver.url}`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, 'Svc-Forward-X-Seed': 'yes', 'Svc-Workflow-RunId': 'seed-run' }, body: 'x' });
      const [delivery] = await receiver.waitFor(1);
      expect(delivery.headers).toMatchObject({ 'x-seed': 'yes', 'upstash-workflow-runid': 'seed-run' });
    } finally {
      await receiver.close();
      await server.close();
    }
  });
});
