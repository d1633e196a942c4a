// Reads a batch (`POST /v2/batch`, `/v2/batch/trigger`): a JSON array of {destination, headers?,
// body?}. Nesting is measured by one linear scan before parsing and refused past MAX_NESTING, so
// no recursive step (parsing, stringifying a body, joining a header) can overflow the stack; header
// names and values are checked here, so a bad one is a 400 now, not a failed delivery later.
import { firstTooDeep } from '../json-nesting';
import { isHeaderName, isHeaderValue } from './header-rules';

export interface BatchEntry {
  readonly destination: string;
  /** Lower-case names. */
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

export class BatchError extends Error {
  override name = 'BatchError';
}

/** Deeper JSON than this is refused: a batch is an array of objects whose bodies rarely nest at all. */
export const MAX_NESTING = 64;

const SHAPE = 'the batch body must be a non-empty JSON array of {destination, headers?, body?}';

export function readBatch(raw: Buffer): BatchEntry[] {
  const text = raw.toString('utf8');
  if (firstTooDeep(text, MAX_NESTING)) throw new BatchError(`the batch nests deeper than ${MAX_NESTING} levels`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BatchError(SHAPE);
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw new BatchError(SHAPE);
  return parsed.map((entry: unknown, index) => {
    const item = entry as { destination?: unknown; headers?: unknown; body?: unknown } | null;
    const where = `batch entry ${index + 1}`;
    if (typeof item?.destination !== 'string') throw new BatchError(`${where} needs a destination URL`);
    const headers: Record<string, string> = {};
    if (item.headers !== undefined && item.headers !== null) {
      if (typeof item.headers !== 'object' || Array.isArray(item.headers)) throw new BatchError(`${where}: headers must be an object of strings`);
      for (const [name, value] of Object.entries(item.headers)) {
        if (!isHeaderName(name)) throw new BatchError(`${where}: "${name.slice(0, 60)}" is not a valid header name`);
        if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw new BatchError(`${where}: header ${name} must be a string`);
        if (!isHeaderValue(String(value))) throw new BatchError(`${where}: header ${name} has characters a header cannot carry`);
        headers[name.toLowerCase()] = String(value);
      }
    }
    const content = item.body === undefined ? '' : typeof item.body === 'string' ? item.body : JSON.stringify(item.body);
    return { destination: item.destination, headers, body: Buffer.from(content) };
  });
}
