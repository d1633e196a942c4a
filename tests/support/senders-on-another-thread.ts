// Test support: clients that send large bodies from a worker thread, so they and the server under
// test do not share an event loop. In one loop each client reads its answer before the server's
// reset reaches it, and a server that resets clients still sending looks right: ten 4 MiB bodies
// against a 256 KiB limit sent from the test's own thread all read their 413 even without a
// lingering close; sent from a worker, 2 did and 8 got EPIPE.
import { Worker } from 'node:worker_threads';

/** Runs `code` (CommonJS, `workerData` and `parentPort` in scope) on a worker and resolves with the one message it posts. */
function onWorker<T>(code: string, workerData: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(`const { workerData, parentPort } = require('node:worker_threads');\n${code}`, { eval: true, workerData });
    worker.once('message', (message: T) => {
      resolve(message);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

// Streams the body in 64 KiB writes, as a client piping a file or a generator does: it reads the
// answer while it sends, so an answer that comes early is seen, or lost to a reset.
const POST_CODE = `
const http = require('node:http');
const { Readable } = require('node:stream');
const { url, headers, body, count } = workerData;
const bytes = Buffer.from(body);
function post() {
  return new Promise((resolve) => {
    const request = http.request(url, { method: 'POST', headers: { ...headers, 'content-length': bytes.length } }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve(response.statusCode + ' ' + Buffer.concat(chunks).toString()));
      response.on('error', (failure) => resolve(failure.code));
    });
    request.on('error', (failure) => resolve(failure.code || failure.message));
    Readable.from((function* () { for (let at = 0; at < bytes.length; at += 65536) yield bytes.subarray(at, at + 65536); })()).pipe(request);
  });
}
Promise.all(Array.from({ length: count }, post)).then((answers) => parentPort.postMessage(answers));
`;

/** POSTs `body` `count` times at once from another thread; each answer is `<status> <body>`, or the error code of a client that got none. */
export function postAtOnceFromAnotherThread(url: string, headers: Record<string, string>, body: Uint8Array, count: number): Promise<string[]> {
  return onWorker(POST_CODE, { url, headers, body, count });
}

const UPSTASH_SET_CODE = `
const { Redis } = require('@upstash/redis');
const { url, token, valueBytes, count } = workerData;
let retries = 0;
const redis = new Redis({ url, token, enableAutoPipelining: false, retry: { retries: 3, backoff: () => (retries++, 1) } });
const value = 'x'.repeat(valueBytes);
Promise.all(Array.from({ length: count }, () => redis.set('big', value).then((result) => 'result ' + result, (failure) => failure.name + ': ' + failure.message.split(', command was:')[0])))
  .then((outcomes) => parentPort.postMessage({ outcomes, retries }));
`;

/**
 * `count` SETs at once of a `valueBytes` value through @upstash/redis (retrying network errors 3
 * times) from another thread: what each caller was told, and how many retries the client made.
 */
export function upstashSetsAtOnceFromAnotherThread(url: string, token: string, valueBytes: number, count: number): Promise<{ outcomes: string[]; retries: number }> {
  return onWorker(UPSTASH_SET_CODE, { url, token, valueBytes, count });
}
