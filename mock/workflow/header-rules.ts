// What a trigger may ask to send: header names and values a delivery can carry, the methods it may
// use, and the forwarded headers it may not set. Checked when the trigger arrives, so a run that
// was accepted with 200 never fails later because of its own request.
//
// Forwarded headers (`Upstash-Forward-*`, `Upstash-Failure-Callback-Forward-*`) may not name a
// hop-by-hop or framing header (they describe the server's own connection: a forwarded
// Content-Length made every attempt time out) nor a header the server sets on each delivery (a
// forwarded Upstash-Signature arrived beside the real one). Such a trigger is refused with 400.
// Content-Type may be forwarded: it is the caller's, and replaces the trigger's own.

/** RFC 9110 token: header names and methods. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** RFC 9110 field value: visible ASCII, space, tab and obs-text; no CR, LF or NUL. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

const HOP_BY_HOP_AND_FRAMING = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'content-length', 'host', 'expect'];
/** Set by the server on every delivery or failure callback. */
const SET_BY_SERVER = ['user-agent', 'upstash-signature', 'upstash-message-id', 'upstash-retried', 'upstash-workflow-runid', 'upstash-label', 'upstash-failure-callback'];
const NOT_FORWARDABLE = new Set([...HOP_BY_HOP_AND_FRAMING, ...SET_BY_SERVER]);

/** The methods a delivery may use: CONNECT and TRACE (and anything else) cannot reach a workflow endpoint. */
export const DELIVERY_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function isHeaderName(name: string): boolean {
  return TOKEN.test(name);
}

export function isHeaderValue(value: string): boolean {
  return FIELD_VALUE.test(value);
}

/** Undefined when `name` (lower case, prefix removed) may be forwarded, else why not. */
export function whyNotForwardable(name: string): string | undefined {
  if (!isHeaderName(name)) return 'is not a valid header name';
  if (NOT_FORWARDABLE.has(name)) return HOP_BY_HOP_AND_FRAMING.includes(name) ? 'describes the connection and cannot be forwarded' : 'is set by the server itself and cannot be forwarded';
  return undefined;
}
