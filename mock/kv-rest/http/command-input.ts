// Turns the REST API's request shapes into commands (lists of byte strings): the path form with
// its POST body and query arguments, and the JSON-array bodies of `/`, `/pipeline` and `/multi-exec`.
// A JSON body is checked as values, so the embedded store (embedded-store.ts), which is handed the
// values a client would have sent as JSON, goes through the same checks without a JSON round trip.
import { isAscii } from 'node:buffer';
import { bufferToBytes, utf8ToBytes } from '../bytes';
import { HttpError } from '../../http-kit/http-error';

export type Command = string[];

/** `%XX` escapes decoded to bytes, so binary arguments survive the path form. */
function percentDecode(segment: string): string {
  return segment.includes('%') ? segment.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : segment;
}

/** Query pairs other than `_token`, in order, each as `key` then `value` (a bare `key` adds one argument). */
export function queryArguments(query: string): string[] {
  if (!query) return [];
  const args: string[] = [];
  for (const pair of query.split('&')) {
    if (!pair) continue;
    const equals = pair.indexOf('=');
    const key = percentDecode((equals < 0 ? pair : pair.slice(0, equals)).replace(/\+/g, ' '));
    if (key === '_token') continue;
    args.push(key);
    if (equals >= 0) args.push(percentDecode(pair.slice(equals + 1).replace(/\+/g, ' ')));
  }
  return args;
}

/**
 * The path form: `/set/foo/bar` with, for POST, a non-empty raw body appended as the last argument
 * and the query's pairs after it (`POST /set/foo?EX=100` with body `v` is `SET foo v EX 100`).
 */
export function commandFromPath(path: string, query: string, body: Buffer | undefined): Command {
  const segments = path.split('/').slice(1);
  if (segments[segments.length - 1] === '') segments.pop();
  const command = segments.map(percentDecode);
  if (body && body.length > 0) command.push(bufferToBytes(body));
  command.push(...queryArguments(query));
  return command;
}

const emptyBody = (): HttpError => new HttpError(400, 'ERR empty request body: send a JSON array such as ["SET","key","value"]');

function nonEmpty(body: Buffer | undefined): Buffer {
  if (!body || body.length === 0) throw emptyBody();
  return body;
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new HttpError(400, 'ERR failed to parse the request body as JSON');
  }
}

const BACKSLASH = 0x5c;

/**
 * Whether every string JSON.parse reads from `body` is ASCII, so already its own byte string: an
 * ASCII body without escapes (no backslash, so no `\u`) can hold no other character. Two scans of
 * the buffer instead of a test of each argument (a third of the parse of a rate limiter's EVALSHA).
 */
const onlyAsciiStrings = (body: Buffer): boolean => isAscii(body) && body.indexOf(BACKSLASH) < 0;

/** An argument as JSON sends it: `null`, and what JSON.stringify writes as null in an array (undefined, NaN, Infinity), is empty. */
function argumentToBytes(value: unknown, row: string, asciiStrings: boolean): string {
  switch (typeof value) {
    case 'string':
      return asciiStrings ? value : utf8ToBytes(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : '';
    case 'boolean':
      return String(value);
    case 'undefined':
      return '';
    default:
      if (value === null) return '';
      throw new HttpError(400, `ERR ${row}: arguments must be strings, numbers or booleans, got ${Array.isArray(value) ? 'an array' : typeof value}`);
  }
}

/** `asciiStrings`: every string in `value` is known to be ASCII (onlyAsciiStrings). */
function commandFromJson(value: unknown, row: string, asciiStrings: boolean): Command {
  if (!Array.isArray(value)) throw new HttpError(400, `ERR ${row} must be a JSON array such as ["SET","key","value"]`);
  if (value.length === 0) throw new HttpError(400, `ERR ${row} is an empty command`);
  // A loop, not map(): a hole in an array the embedded store is handed is null in JSON, not skipped
  // (and Array.from took three times as long).
  const command: Command = new Array(value.length);
  for (let index = 0; index < value.length; index++) command[index] = argumentToBytes(value[index], row, asciiStrings);
  return command;
}

/** `POST /` with `["SET","foo","bar"]`. */
export function commandFromJsonBody(body: Buffer | undefined): Command {
  const json = nonEmpty(body);
  return commandFromJsonValue(parseJson(json), onlyAsciiStrings(json));
}

/** `/pipeline` and `/multi-exec` with `[["SET","a","1"],["GET","a"]]`. */
export function commandsFromJsonBody(body: Buffer | undefined): Command[] {
  const json = nonEmpty(body);
  return commandsFromJsonValues(parseJson(json), onlyAsciiStrings(json));
}

/**
 * One command as the values of its JSON body (undefined: no body, as JSON.stringify writes nothing
 * for it); `asciiStrings` when its strings are known to be ASCII.
 */
export function commandFromJsonValue(value: unknown, asciiStrings = false): Command {
  if (value === undefined) throw emptyBody();
  return commandFromJson(value, 'the request body', asciiStrings);
}

/** Several commands as the values of their JSON body (undefined: no body). */
export function commandsFromJsonValues(rows: unknown, asciiStrings = false): Command[] {
  if (rows === undefined) throw emptyBody();
  if (!Array.isArray(rows)) throw new HttpError(400, 'ERR the request body must be a JSON array of commands such as [["SET","a","1"],["GET","a"]]');
  if (rows.length === 0) throw new HttpError(400, 'ERR the request body holds no commands');
  const commands: Command[] = new Array(rows.length);
  for (let index = 0; index < rows.length; index++) commands[index] = commandFromJson(rows[index], `command ${index + 1}`, asciiStrings);
  return commands;
}
