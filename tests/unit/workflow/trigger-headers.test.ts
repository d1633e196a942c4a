// Reading a trigger's headers into a run request: prefix removal on forwarded headers, Delay vs
// Not-Before, retries, labels, flow control, failure callback, and a clear error for each mistake.
import { readRunRequest, TriggerError } from '../../../mock/workflow/trigger-request';

const NOW = 1_700_000_000_000;
const read = (headers: Record<string, string>, destination = 'https://example.com/api/workflow', prefix = 'Upstash') =>
  readRunRequest(destination, headers, Buffer.from('body'), prefix, NOW, 1);

describe('trigger headers', () => {
  it('uses the defaults when only a destination is given', () => {
    const request = read({});
    expect(request).toMatchObject({ method: 'POST', retries: 3, notBefore: NOW, labels: [], forwardHeaders: {} });
    expect(request.runId).toBeUndefined();
    expect(request.flowControl).toBeUndefined();
    expect(request.failureCallback).toBeUndefined();
  });

  it('removes the prefix from forwarded headers and reads method, run id, retries and labels', () => {
    const request = read({
      'upstash-forward-x-tenant': 'acme',
      'upstash-forward-authorization': 'Bearer downstream',
      'upstash-method': 'put',
      'upstash-workflow-runid': 'wfr_given',
      'upstash-retries': '0',
      'upstash-label': 'billing, nightly,,',
      'x-not-forwarded': 'no',
    });
    expect(request.forwardHeaders).toEqual({ 'x-tenant': 'acme', authorization: 'Bearer downstream' });
    expect(request).toMatchObject({ method: 'PUT', runId: 'wfr_given', retries: 0, labels: ['billing', 'nightly'] });
  });

  it('adds Delay with combined units and lets Not-Before win over it', () => {
    expect(read({ 'upstash-delay': '1d2h3m' }).notBefore).toBe(NOW + 93_780_000);
    const notBefore = NOW / 1000 + 30;
    expect(read({ 'upstash-delay': '1d', 'upstash-not-before': String(notBefore) }).notBefore).toBe(notBefore * 1000);
  });

  it('scales Delay by the time scale', () => {
    expect(readRunRequest('http://localhost/x', { 'upstash-delay': '10s' }, Buffer.alloc(0), 'Upstash', NOW, 0.001).notBefore).toBe(NOW + 10);
  });

  it('reads flow control and the failure callback with its own forwarded headers', () => {
    const request = read({
      'upstash-flow-control-key': 'tenant-a',
      'upstash-flow-control-value': 'parallelism=1, rate=5, period=10s',
      'upstash-failure-callback': 'http://localhost:9/failed',
      'upstash-failure-callback-forward-x-alert': 'ops',
    });
    expect(request.flowControl).toEqual({ key: 'tenant-a', limits: { parallelism: 1, rate: 5, period: 10_000 } });
    expect(request.failureCallback).toEqual({ url: 'http://localhost:9/failed', headers: { 'x-alert': 'ops' } });
  });

  it('reads the seed\'s Svc- names when the prefix is Svc, and ignores Upstash- ones then', () => {
    const request = read({ 'svc-retries': '1', 'svc-forward-x-a': '1', 'upstash-forward-x-b': '2' }, undefined, 'Svc');
    expect(request.retries).toBe(1);
    expect(request.forwardHeaders).toEqual({ 'x-a': '1' });
  });

  it.each([
    [{ 'upstash-retries': 'three' }, /Upstash-Retries must be a whole number/],
    [{ 'upstash-retries': '1.5' }, /Upstash-Retries must be a whole number/],
    [{ 'upstash-retries': '1000' }, /from 0 to 100/],
    [{ 'upstash-delay': '10 minutes' }, /Upstash-Delay must be <number><unit>/],
    [{ 'upstash-not-before': 'tomorrow' }, /Upstash-Not-Before must be a unix time/],
    [{ 'upstash-flow-control-key': 'k' }, /must be sent together/],
    [{ 'upstash-flow-control-value': 'rate=1' }, /must be sent together/],
    [{ 'upstash-flow-control-key': 'k', 'upstash-flow-control-value': 'fast' }, /Upstash-Flow-Control-Value: unknown setting "fast"/],
    [{ 'upstash-failure-callback': 'ftp://host/x' }, /Upstash-Failure-Callback: endpoint has invalid scheme/],
    [{ 'upstash-retry-delay': 'fetch(1)' }, /Upstash-Retry-Delay "fetch\(1\)": unknown function "fetch"/],
    [{ 'upstash-retry-delay': 'count * 2' }, /unknown variable "count"/],
  ])('refuses %j', (headers, message) => {
    expect(() => read(headers)).toThrow(TriggerError);
    expect(() => read(headers)).toThrow(message);
  });

  it.each(['example.com/no-scheme', 'ftp://example.com/x', 'not a url'])('refuses the destination %j', (destination) => {
    expect(() => read({}, destination)).toThrow(/invalid destination url: .*add http:\/\/ or https:\/\//);
  });
});
