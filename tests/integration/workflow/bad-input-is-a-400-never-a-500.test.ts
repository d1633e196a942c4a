// Finding 3 of issue 19: malformed percent-encodings in a path and batch entries nested 100k deep
// answered 500. Every request input is now checked before use: 400 with a JSON error, quickly.
import { startWorkflowServer, type WorkflowServer } from '../../../mock';

describe('bad input is a 400, never a 500', () => {
  let server: WorkflowServer;
  beforeAll(async () => {
    server = await startWorkflowServer();
  });
  afterAll(() => server.close());
  const auth = () => ({ authorization: `Bearer ${server.token}` });
  const batch = (body: string) => fetch(`${server.url}/v2/batch/trigger`, { method: 'POST', headers: auth(), body });

  it.each(['%E0%A4%A', '%', '%ZZ'])('finding 3: GET /v2/workflows/runs/%s answers 400 with a JSON error', async (id) => {
    const response = await fetch(`${server.url}/v2/workflows/runs/${id}`, { headers: auth() });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'the run id is not a valid percent-encoded path segment' });
  });

  it('finding 3: batch entries whose body or header is nested 100k arrays deep answer 400 within a second', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const started = Date.now();
    for (const body of [`[{"destination":"http://127.0.0.1:1/x","body":${deep}}]`, `[{"destination":"http://127.0.0.1:1/x","headers":{"x":${deep}}}]`]) {
      const response = await batch(body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'the batch nests deeper than 64 levels' });
    }
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it.each([
    ['{"x":{"y":1}}', 'batch entry 1: header x must be a string'],
    ['{"x":"a\\r\\nInjected: 1"}', 'batch entry 1: header x has characters a header cannot carry'],
    ['{"bad name":"1"}', 'batch entry 1: "bad name" is not a valid header name'],
    ['["not an object"]', 'batch entry 1: headers must be an object of strings'],
  ])('finding 3: a batch entry with headers %s answers 400 before any run starts', async (headers, error) => {
    const response = await batch(`[{"destination":"http://127.0.0.1:1/x","headers":${headers}}]`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error });
    expect(server.runs.activeCount()).toBe(0);
  });
});
