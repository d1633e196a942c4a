// SORT and SORT_RO as Redis 7.0 runs them: lists, sets and sorted sets, numerically (strtod) or
// ALPHA, BY a weight pattern (`w_*`, `h_*->field`) or a constant (no sorting), LIMIT, GET patterns
// (`#` is the element), ASC/DESC and STORE into a list. ALPHA compares bytes, as Redis does under the
// C locale (strcoll otherwise). BY and GET patterns read keys no key position names, so, as in
// Redis, only a user allowed every key may use them (the spec's `needsEveryKey`).
import { array, bulkOrNil, EMPTY_ARRAY, error, integer, type ErrorReply, type Reply } from '../../reply';
import { DECIMAL, isErrorReply, parseInteger, SYNTAX_ERROR } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import { refuseElements } from '../reply-limits';

const WRONGTYPE = error('WRONGTYPE Operation against a key holding the wrong kind of value');
const NOT_A_DOUBLE = error("ERR One or more scores can't be converted into double");

interface SortOptions {
  desc: boolean;
  alpha: boolean;
  limitStart: number;
  limitCount: number;
  by?: string;
  gets: string[];
  storeKey?: string;
}

function parseSortOptions(args: readonly string[], readOnly: boolean): SortOptions | ErrorReply {
  const options: SortOptions = { desc: false, alpha: false, limitStart: 0, limitCount: -1, gets: [] };
  for (let index = 2; index < args.length; index++) {
    const left = args.length - index - 1;
    const option = args[index].toLowerCase();
    if (option === 'asc') options.desc = false;
    else if (option === 'desc') options.desc = true;
    else if (option === 'alpha') options.alpha = true;
    else if (option === 'limit' && left >= 2) {
      const start = parseInteger(args[index + 1]);
      if (isErrorReply(start)) return start;
      const count = parseInteger(args[index + 2]);
      if (isErrorReply(count)) return count;
      options.limitStart = start;
      options.limitCount = count;
      index += 2;
    } else if (!readOnly && option === 'store' && left >= 1) options.storeKey = args[++index];
    else if (option === 'by' && left >= 1) options.by = args[++index];
    else if (option === 'get' && left >= 1) options.gets.push(args[++index]);
    else return SYNTAX_ERROR;
  }
  return options;
}

/** Redis's lookupKeyByPattern: `#` is the element; `*` takes the element; `->field` reads a hash. */
function lookupByPattern(ctx: CommandContext, pattern: string, element: string): string | undefined {
  if (pattern === '#') return element;
  const star = pattern.indexOf('*');
  if (star < 0) return undefined;
  const arrow = pattern.indexOf('->', star + 1);
  const field = arrow >= 0 && arrow + 2 < pattern.length ? pattern.slice(arrow + 2) : undefined;
  const key = pattern.slice(0, star) + element + pattern.slice(star + 1, field === undefined ? pattern.length : arrow);
  const value = ctx.db.lookup(key, ctx.now);
  if (field !== undefined) return value?.type === 'hash' ? value.fields.get(field) : undefined;
  return value?.type === 'string' ? value.value : undefined;
}

const STRTOD = new RegExp(`^[ \\t\\n\\v\\f\\r]*[+-]?(?:(${DECIMAL})|inf|infinity)$`, 'i');

/** C's strtod over the whole text (hex floats aside): undefined where Redis reports a conversion error. */
function strtod(text: string): number | undefined {
  if (text === '') return 0;
  const match = STRTOD.exec(text);
  if (!match) return undefined;
  if (match[1] === undefined) return text.trim().startsWith('-') ? -Infinity : Infinity;
  const value = Number(text.trim());
  const overflow = !Number.isFinite(value);
  const underflow = value === 0 && /[1-9]/.test(match[1]);
  return overflow || underflow ? undefined : value;
}

const compareBytes = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

interface SortSource {
  readonly kind: 'list' | 'set' | 'zset';
  readonly elements: string[];
}

function elementsOf(ctx: CommandContext, key: string): SortSource | ErrorReply {
  const value = ctx.db.lookup(key, ctx.now);
  if (!value) return { kind: 'list', elements: [] };
  if (value.type === 'list') return { kind: 'list', elements: [...value.items] };
  if (value.type === 'set') return { kind: 'set', elements: [...value.members] };
  if (value.type === 'zset') return { kind: 'zset', elements: value.zset.all().map((entry) => entry.member) };
  return WRONGTYPE;
}

function sort(readOnly: boolean) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const options = parseSortOptions(args, readOnly);
    if (isErrorReply(options)) return options;
    const source = elementsOf(ctx, args[1]);
    if (isErrorReply(source)) return source;
    const { kind } = source;
    let elements = source.elements;
    let { alpha, by } = options;
    let dontSort = by !== undefined && !by.includes('*');
    // A set has no order of its own: Redis sorts it when storing (or in scripts) so replicas agree.
    if (dontSort && kind === 'set' && (options.storeKey !== undefined || ctx.inScript)) {
      dontSort = false;
      alpha = true;
      by = undefined;
    }
    const length = elements.length;
    let start = Math.min(Math.max(options.limitStart, 0), length);
    const count = Math.min(Math.max(options.limitCount, -1), length);
    let end = count < 0 ? length - 1 : start + count - 1;
    if (start >= length) {
      start = length - 1;
      end = length - 2;
    }
    if (end >= length) end = length - 1;
    if (dontSort) {
      if (kind !== 'set' && options.desc) elements = elements.reverse();
    } else {
      const keyed = elements.map((element) => {
        const weight = by === undefined ? element : lookupByPattern(ctx, by, element);
        return { element, weight, score: alpha ? 0 : weight === undefined ? 0 : strtod(weight) };
      });
      if (keyed.some((entry) => entry.score === undefined)) return NOT_A_DOUBLE;
      const compare = (a: (typeof keyed)[number], b: (typeof keyed)[number]): number => {
        let order: number;
        if (!alpha) order = (a.score as number) > (b.score as number) ? 1 : (a.score as number) < (b.score as number) ? -1 : compareBytes(a.element, b.element);
        else if (by === undefined) order = compareBytes(a.element, b.element);
        else if (a.weight === undefined || b.weight === undefined) order = a.weight === b.weight ? 0 : a.weight === undefined ? -1 : 1;
        else order = compareBytes(a.weight, b.weight);
        return options.desc ? -order : order;
      };
      elements = keyed.sort(compare).map((entry) => entry.element);
    }
    const picked = end >= start ? elements.slice(start, end + 1) : [];
    const outputs = options.gets.length > 0 ? picked.length * options.gets.length : picked.length;
    // What SORT ... STORE writes is bounded like a reply; what it answers is reserved from the response.
    const refused = options.storeKey === undefined ? ctx.reserveReply(outputs, 0) : refuseElements(outputs, ctx.replyLimits);
    if (refused) return refused;
    const values: (string | undefined)[] =
      options.gets.length === 0 ? picked : picked.flatMap((element) => options.gets.map((pattern) => lookupByPattern(ctx, pattern, element)));
    if (options.storeKey === undefined) return values.length === 0 ? EMPTY_ARRAY : array(values.map(bulkOrNil));
    ctx.db.delete(options.storeKey);
    if (values.length > 0) ctx.db.set(options.storeKey, { type: 'list', items: values.map((value) => value ?? '') });
    return integer(values.length);
  };
}

export const sortCommandHandlers: CommandHandlers = { sort: sort(false), sort_ro: sort(true) };

