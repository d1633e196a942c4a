// The GraphQL operations of one request at the endpoint, read the way Apollo Server will read them:
// GET from the query string (`query`, `operationName`, `variables` as JSON, each given once), POST
// from the body, one operation object or a JSON array batch (every operation counts, whether or not
// the app turned batching on: refused batches run nothing, so counting them is only conservative).
// Strapi's body parser skips the exact endpoint path, so at the plugin's position `POST /graphql`
// arrives unread (ctx.request.body undefined); it is read here, once, within `maxBodyBytes` and
// `bodyTimeoutMs`, decompressed like koa-bodyparser does (gzip, deflate, br), decoded as UTF-8
// whatever its charset with a leading byte-order mark dropped (co-body's default encoding, which
// koa-bodyparser and koa-body use: a latin1 or UTF-16 body reaches Apollo decoded as UTF-8 too), and
// parsed as the GraphQL route's koa-bodyparser would (JSON, or a form's fields), and
// `ctx.request.body` is set so that parser skips and Apollo reads the same value. A form is read only
// when its field names are plain and each given once: koa-bodyparser reads forms with qs, which nests
// `variables[n]` and `variables.n` and makes a repeated name an array, and the plugin, reading
// fields flat, would hand Apollo other variables than the app gets without it; such a form is
// answered 400. A POST of another content type is answered 415 without reading it: a body left
// unread is read by whichever parser comes later (koa-bodyparser cuts one trailing `;` before its
// type check; Strapi's body middleware reads multipart and `application/reports+json` at
// `/graphql?x=1` or `/graphql/` when the plugin sits before it), and Apollo would run a document the
// plugin did not count. The type is read leniently (its media type, any parameters and trailing `;`
// dropped): reading a body the route's parser would refuse only hands Apollo what was counted.
import { Transform, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Context } from 'koa';
import { Deadline } from '../../../shared/deadline';

/** One operation request: the document's text, the variables, the operation's name. */
export interface OperationRequest {
  /** undefined when the request carries no string query (Apollo refuses it, or runs a persisted query). */
  readonly query: string | undefined;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly operationName: string | undefined;
  /** An automatic persisted query's SHA-256 (hex, lower case), sent instead of or beside the text. */
  readonly persistedHash: string | undefined;
}

/** Why a request's operations cannot be read: the plugin answers it with this status and message. */
export class UnreadableRequest extends Error {
  override readonly name = 'UnreadableRequest';
  constructor(readonly status: 400 | 408 | 413 | 415, message: string) {
    super(message);
  }
}

export interface RequestBounds {
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
  readonly maxBatchOperations: number;
}

/** What koa-bodyparser reads as JSON (its jsonTypes) and as a form. */
const JSON_TYPES = new Set(['application/json', 'application/json-patch+json', 'application/vnd.api+json', 'application/csp-report', 'application/scim+json']);
const FORM_TYPE = 'application/x-www-form-urlencoded';

/** A Content-Type's media type, lower case, without its parameters (or a trailing `;`). */
const mediaTypeOf = (contentType: string): string => {
  const end = contentType.indexOf(';');
  return (end < 0 ? contentType : contentType.slice(0, end)).trim().toLowerCase();
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Apollo's automatic persisted queries: `extensions.persistedQuery.sha256Hash`. Apollo 4 looks a hash
 * up as `'apq:' + hash`, whatever its type, so `["<hex>"]` finds the document `"<hex>"` names (review
 * of issue 35: read as no hash, it was charged 1 and ran 100 logins). A hash given that is not a
 * string is refused: Apollo would run a document by it, or answer 400 beside a query.
 */
function persistedHashOf(extensions: unknown): string | undefined {
  const persisted = isRecord(extensions) ? extensions.persistedQuery : undefined;
  if (!isRecord(persisted) || !Object.hasOwn(persisted, 'sha256Hash')) return undefined;
  const hash = persisted.sha256Hash;
  if (typeof hash !== 'string') throw new UnreadableRequest(400, 'extensions.persistedQuery.sha256Hash must be a string: the SHA-256 of the document in hex');
  return hash.toLowerCase();
}

function operationOf(value: unknown): OperationRequest {
  if (!isRecord(value)) return { query: undefined, variables: {}, operationName: undefined, persistedHash: undefined };
  return {
    query: typeof value.query === 'string' ? value.query : undefined,
    variables: isRecord(value.variables) ? value.variables : {},
    operationName: typeof value.operationName === 'string' ? value.operationName : undefined,
    persistedHash: persistedHashOf(value.extensions),
  };
}

/** The operations a parsed body holds: one, or each of an array batch (bounded). */
function operationsOfBody(body: unknown, bounds: RequestBounds): OperationRequest[] {
  if (!Array.isArray(body)) return [operationOf(body)];
  if (body.length > bounds.maxBatchOperations) throw new UnreadableRequest(400, `This batch has ${body.length} operations, more than the ${bounds.maxBatchOperations} allowed (graphql.maxBatchOperations)`);
  return body.map(operationOf);
}

/** A search parameter Apollo would accept: given once (twice is Apollo's 400, so the query is not read). */
function once1(search: URLSearchParams, name: string): string | undefined {
  const values = search.getAll(name);
  return values.length === 1 ? values[0] : undefined;
}

/** A JSON search parameter; one that is not JSON is Apollo's 400, read here as absent. */
function jsonParameter(search: URLSearchParams, name: string): unknown {
  try {
    return JSON.parse(once1(search, name) ?? 'null');
  } catch {
    return null;
  }
}

function operationsOfQueryString(querystring: string): OperationRequest[] {
  const search = new URLSearchParams(querystring);
  const variables = jsonParameter(search, 'variables');
  return [{ query: once1(search, 'query'), variables: isRecord(variables) ? variables : {}, operationName: once1(search, 'operationName'), persistedHash: persistedHashOf(jsonParameter(search, 'extensions')) }];
}

function decoded(ctx: Context): Readable {
  const encoding = (ctx.get('Content-Encoding') || 'identity').toLowerCase();
  if (encoding === 'identity') return ctx.req;
  const decoder = encoding === 'gzip' ? createGunzip() : encoding === 'deflate' ? createInflate() : encoding === 'br' ? createBrotliDecompress() : undefined;
  if (!decoder) {
    ctx.set('Connection', 'close');
    throw new UnreadableRequest(400, `The request's Content-Encoding "${encoding.slice(0, 32)}" is not supported (gzip, deflate, br or none)`);
  }
  return ctx.req.pipe(decoder);
}

/**
 * Stops reading a body the plugin refuses, without destroying the request: its socket must still
 * carry the answer, and is closed after it (`Connection: close`) rather than kept alive with unread
 * bytes. (A `for await` over the request would destroy it when left early.)
 */
function stopReading(ctx: Context, source: Readable): void {
  if (source instanceof Transform) {
    ctx.req.unpipe(source);
    source.destroy();
  }
  ctx.req.pause();
  ctx.set('Connection', 'close');
}

/** raw-body's decoder (iconv-lite) drops a leading byte-order mark, so a JSON body may start with one. */
const withoutByteOrderMark = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/**
 * The body's bytes, within `maxBodyBytes` (decompressed) and `bodyTimeoutMs`. The stream's listeners
 * only collect and settle: what is made of the bytes is made by the caller, so an error there rejects
 * the read (and the charge: charge-failures.ts) where, thrown inside the 'end' listener, it escaped
 * the stream as an uncaught exception, which ends a Node process (review of issue 35: chunks that an
 * earlier middleware's `req.setEncoding` made strings threw in Buffer.concat; the first such chunk
 * now fails the read).
 */
function readBody(ctx: Context, bounds: RequestBounds): Promise<Buffer[]> {
  const tooLarge = () => new UnreadableRequest(413, `The request body is larger than ${bounds.maxBodyBytes} bytes (graphql.maxBodyBytes)`);
  if (Number(ctx.get('Content-Length')) > bounds.maxBodyBytes) {
    ctx.set('Connection', 'close');
    return Promise.reject(tooLarge());
  }
  const source = decoded(ctx);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let settled = false;
    // Every listener goes with the first outcome: the stream closes after its end, and a failure
    // built then for nothing (an Error captures a stack) was a tenth of a GraphQL request's CPU.
    const finish = (failure?: Error): void => {
      if (settled) return;
      settled = true;
      deadline?.cancel();
      source.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (!failure) return resolve(chunks);
      stopReading(ctx, source);
      reject(failure);
    };
    // A string chunk means an earlier middleware set the stream's encoding: the read fails at once (the
    // charge with it), where collecting strings read on to the end and counted UTF-16 units, not bytes
    // (a body of "€" read 29,726 bytes under a 10,000-byte bound).
    const onData = (chunk: Buffer | string): void => {
      if (typeof chunk === 'string') return finish(new TypeError('The request body arrives as text (an earlier middleware set its encoding), so its bytes cannot be read'));
      bytes += chunk.length;
      if (bytes > bounds.maxBodyBytes) return finish(tooLarge());
      chunks.push(chunk);
    };
    const onEnd = () => finish();
    const onError = () => finish(new UnreadableRequest(400, 'The request body could not be read (a malformed compressed body, or the client went away)'));
    const onClose = () => finish(new UnreadableRequest(400, 'The request body ended early (the client went away)'));
    // A body Node's parser has read whole (the usual small POST, by the time the plugin runs) is in
    // memory and cannot keep the plugin waiting: no timer to arm and clear. Otherwise the timeout is
    // judged after the bytes that came in by then are read (shared/deadline.ts): judged in its
    // timer's callback, a body whose last bytes came in time while the loop was held was refused.
    // Once they are all in, only the decoder's bounded work is left, so there is nothing to refuse:
    // the stream is resumed below, since a 'data' listener does not resume a request an earlier
    // middleware paused (its whole body waited there and the read never settled).
    const deadline = ctx.req.complete
      ? undefined
      : new Deadline(() => {
          if (!ctx.req.complete) finish(new UnreadableRequest(408, `The request body did not arrive within ${bounds.bodyTimeoutMs} ms (graphql.bodyTimeoutMs)`));
        }, bounds.bodyTimeoutMs);
    source.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose).resume();
  });
}

/** A form name or value as qs decodes it: `+` is a space, and a malformed escape is kept as written. */
function formDecoded(text: string): string {
  const spaced = text.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** qs reads the first 1000 fields of a form (its parameterLimit) and drops the rest. */
const FORM_FIELD_LIMIT = 1000;

/**
 * A form's fields as qs (koa-bodyparser's reader, `allowDots` on, the plugin has no dependency on it)
 * reads a form of plain names, each given once; qs drops empty names and those of Object.prototype.
 * A nested or repeated name, which qs reads into objects or arrays, is refused.
 */
function formFields(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  // qs unescapes brackets before it splits and decodes anything.
  for (const part of text.replace(/%5B/gi, '[').replace(/%5D/gi, ']').split('&', FORM_FIELD_LIMIT)) {
    // qs splits a name ending in `]` at its `]=` (`a[b=c]=d` is the name `a[b=c]`).
    const bracketEquals = part.indexOf(']=');
    const equals = bracketEquals < 0 ? part.indexOf('=') : bracketEquals + 1;
    const name = formDecoded(equals < 0 ? part : part.slice(0, equals));
    if (name === '' || Object.hasOwn(Object.prototype, name)) continue;
    if (/[.[\]]/.test(name) || Object.hasOwn(fields, name)) {
      throw new UnreadableRequest(400, `The form field "${name.slice(0, 64)}" is nested or repeated, which the plugin does not read as the GraphQL route would: send the operation as JSON`);
    }
    fields[name] = equals < 0 ? '' : formDecoded(part.slice(equals + 1));
  }
  return fields;
}

function parsedBody(text: string, form: boolean): unknown {
  if (form) return formFields(text);
  try {
    return JSON.parse(text);
  } catch {
    throw new UnreadableRequest(400, 'The request body is not JSON: a GraphQL request is a JSON object such as {"query": "{ articles { title } }"}');
  }
}

/**
 * The operations of a GET or POST at the endpoint (none for other methods, which Apollo refuses);
 * rejects with an UnreadableRequest the plugin answers itself (the body was consumed).
 */
export async function readOperations(ctx: Context, bounds: RequestBounds): Promise<OperationRequest[]> {
  if (ctx.method === 'GET') return operationsOfQueryString(ctx.querystring);
  if (ctx.method !== 'POST') return [];
  if (ctx.request.body !== undefined) return operationsOfBody(ctx.request.body, bounds);
  const mediaType = mediaTypeOf(ctx.get('Content-Type'));
  const form = mediaType === FORM_TYPE;
  if (!form && !JSON_TYPES.has(mediaType)) {
    ctx.set('Connection', 'close');
    throw new UnreadableRequest(415, `The request's Content-Type "${mediaType.slice(0, 64)}" is not read at the GraphQL endpoint: send the operation as JSON (Content-Type: application/json)`);
  }
  const text = withoutByteOrderMark(Buffer.concat(await readBody(ctx, bounds)).toString('utf8'));
  const body = parsedBody(text, form);
  // koa-bodyparser (strict) takes only an object or an array, and skips once a body is set.
  if (typeof body !== 'object' || body === null) throw new UnreadableRequest(400, 'The request body must be a JSON object (one operation) or an array of them (a batch)');
  ctx.request.body = body;
  return operationsOfBody(body, bounds);
}

/**
 * What Apollo sees in place of a persisted hash the plugin does not know, in a batch: Apollo looks a
 * hash up as `'apq:' + hash` and stores only the SHA-256 (hex) of texts it was sent, so no document
 * has this hash, and Apollo answers the operation PersistedQueryNotFound without running anything.
 */
const UNKNOWN_TO_THE_LIMITER = 'unknown-to-the-rate-limiter:';

/**
 * Replaces the batch operation at `index` (of the body the plugin set, an array) by a copy whose
 * persisted hash no document can have: the plugin charged nothing for it, so Apollo must not find a
 * document the plugin has forgotten, and Apollo's PersistedQueryNotFound tells the client to send
 * the text, which is then charged.
 */
export function hidePersistedHash(ctx: Context, index: number): void {
  const batch = ctx.request.body as Array<Record<string, unknown>>;
  const extensions = batch[index].extensions as Record<string, unknown>;
  const persisted = extensions.persistedQuery as Record<string, unknown>;
  batch[index] = { ...batch[index], extensions: { ...extensions, persistedQuery: { ...persisted, sha256Hash: `${UNKNOWN_TO_THE_LIMITER}${String(persisted.sha256Hash)}` } } };
}
