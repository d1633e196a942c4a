// Issue 36: the REST transport's calls in flight share one deadline timer (store/rest/rest-connections.ts,
// store/oldest-deadline-timer.ts). Armed and cleared per call, that timer was one per request at
// moderate load, where each turn of the event loop holds one request and sends one /pipeline. A call
// unanswered at its own deadline still fails then, and a later call is not failed at an earlier
// call's deadline. The shared timer is unref'd: a call in flight keeps the process alive through its
// connection, and nothing keeps it alive once the answers are in.
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { StoreConnections } from '../../../../server/src/store/rest/rest-connections';

const OPTIONS = { maxConnections: 4, idleReuseMs: 4000, maxAnswerBytes: 1024 * 1024 };
const post = (body: string) => `POST / HTTP/1.1\r\nhost: store\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ server: Server; url: URL }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`) };
}

const closeServer = (server: Server) => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });

const outcome = (promise: Promise<{ body: Buffer }>): Promise<string> =>
  promise.then(
    (response) => `answered ${response.body.toString()}`,
    (failure: Error) => failure.message,
  );

describe('the calls of the REST transport', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await closeServer(server);
  });

  it('arm one deadline timer for 20 lone calls, each answered', async () => {
    const { server, url } = await listen((request, response) => request.resume().on('end', () => response.end('"ok"')));
    servers.push(server);
    const connections = new StoreConnections(url, 60_000, OPTIONS);
    const armed = jest.spyOn(global, 'setTimeout');
    const answers: string[] = [];
    for (let call = 0; call < 20; call++) answers.push(await outcome(connections.send(post(`${call}`))));
    const deadlineTimers = armed.mock.calls.filter(([, delay]) => delay === 60_000).length;
    armed.mockRestore();
    connections.close();
    expect({ deadlineTimers, answers: new Set(answers) }).toEqual({ deadlineTimers: 1, answers: new Set(['answered "ok"']) });
  });

  it('fail an unanswered call at its own deadline, not a later call at the earlier deadline', async () => {
    const { server, url } = await listen(() => undefined);
    servers.push(server);
    const connections = new StoreConnections(url, 300, OPTIONS);
    const settled: string[] = [];
    const first = outcome(connections.send(post('first'))).then((message) => void settled.push(`first: ${message}`));
    await new Promise((resolve) => setTimeout(resolve, 150));
    const later = outcome(connections.send(post('later'))).then((message) => void settled.push(`later: ${message}`));
    await first;
    const settledWhenTheFirstFailed = [...settled];
    await later;
    connections.close();
    expect({ settledWhenTheFirstFailed, settled }).toEqual({
      settledWhenTheFirstFailed: ['first: no answer from the key-value store within 300 ms'],
      settled: ['first: no answer from the key-value store within 300 ms', 'later: no answer from the key-value store within 300 ms'],
    });
  });

  it('keep a process alive while a call waits for its answer, and let it end once answered though the deadline is far off', async () => {
    const { server, url } = await listen((request, response) => request.resume().on('end', () => setTimeout(() => response.end('"late"'), 300)));
    servers.push(server);
    // A script with nothing else to do than one call: it must print the answer, then end at once
    // (a deadline timer holding it would keep it up for the 60 s timeout, past this test's). It runs
    // the build (npm test builds first).
    const script = `
      const { StoreConnections } = require(${JSON.stringify(path.resolve(__dirname, '../../../../dist/server/src/store/rest/rest-connections.js'))});
      const connections = new StoreConnections(new URL(${JSON.stringify(url.href)}), 60000, ${JSON.stringify(OPTIONS)});
      connections.send(${JSON.stringify(post('x'))}).then((response) => console.log(response.body.toString()));`;
    const printed = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['-e', script], { timeout: 20_000 }, (failure, stdout) => (failure ? reject(failure) : resolve(stdout))),
    );
    expect(printed).toBe('"late"\n');
  });
});
