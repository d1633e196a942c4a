// Findings 5 and 11 of issue 19: triggers that could never be delivered were accepted with 200
// (credentials in the URL, a method that is not a token, CONNECT, TRACE), and forwarded headers
// could collide with the server's own or with the connection's framing. All are 400 now.
import { startWorkflowServer, type WorkflowServer } from '../../../mock';
import { startReceiver } from './receiver';

describe('undeliverable triggers are refused up front', () => {
  let server: WorkflowServer;
  beforeAll(async () => {
    server = await startWorkflowServer({ timeScale: 0.001 });
  });
  afterAll(() => server.close());
  const trigger = (destination: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/v2/trigger/${destination}`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, ...headers }, body: 'x' });
  const errorOf = async (response: Response) => [response.status, ((await response.json()) as { error: string }).error];

  it('finding 5: a destination or failure callback with credentials in the URL answers 400', async () => {
    expect(await errorOf(await trigger('http://user:pw@127.0.0.1:1/x'))).toEqual([400, 'invalid destination url: credentials in the URL are not allowed, forward an Authorization header instead']);
    expect(await errorOf(await trigger('http://127.0.0.1:1/x', { 'Upstash-Failure-Callback': 'http://user@127.0.0.1:1/cb' }))).toEqual([
      400,
      'invalid Upstash-Failure-Callback: credentials in the URL are not allowed, forward an Authorization header instead',
    ]);
  });

  it.each(['FOO BAR', 'CONNECT', 'TRACE', 'TRACK', 'GET\r\n'])('finding 5: Upstash-Method %j answers 400 naming the methods allowed', async (method) => {
    const response = await fetch(`${server.url}/v2/batch/trigger`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}` },
      body: JSON.stringify([{ destination: 'http://127.0.0.1:1/x', headers: { 'Upstash-Method': method } }]),
    });
    const [status, error] = await errorOf(response);
    expect(status).toBe(400);
    expect(error).toMatch(/Upstash-Method must be one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS|header Upstash-Method has characters/);
  });

  it.each(['Upstash-Signature', 'Upstash-Message-Id', 'Upstash-Retried', 'User-Agent', 'Content-Length', 'Transfer-Encoding', 'Connection', 'Host', 'Upgrade'])(
    'finding 11: forwarding %s answers 400',
    async (name) => {
      const [status, error] = await errorOf(await trigger('http://127.0.0.1:1/x', { [`Upstash-Forward-${name}`]: '1' }));
      expect(status).toBe(400);
      expect(error).toMatch(new RegExp(`^Upstash-Forward-${name.toLowerCase()}: "${name.toLowerCase()}" (is set by the server itself|describes the connection) and cannot be forwarded$`));
      const [callbackStatus] = await errorOf(await trigger('http://127.0.0.1:1/x', { 'Upstash-Failure-Callback': 'http://127.0.0.1:1/cb', [`Upstash-Failure-Callback-Forward-${name}`]: '1' }));
      expect(callbackStatus).toBe(400);
    },
  );

  it('finding 11: a forwarded Content-Type replaces the trigger\'s own, once, and the signature is only the server\'s', async () => {
    const receiver = await startReceiver();
    try {
      await trigger(receiver.url, { 'content-type': 'text/plain', 'Upstash-Forward-Content-Type': 'application/json', 'Upstash-Forward-X-Tenant': 'acme' });
      const [delivery] = await receiver.waitFor(1);
      expect([delivery.headers['content-type'], delivery.headers['x-tenant']]).toEqual(['application/json', 'acme']);
      expect(String(delivery.headers['upstash-signature']).split('.')).toHaveLength(3);
    } finally {
      await receiver.close();
    }
  });
});
