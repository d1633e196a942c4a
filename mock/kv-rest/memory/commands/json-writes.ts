// The RedisJSON commands that change values in place: JSON.DEL/JSON.FORGET, JSON.CLEAR,
// JSON.TOGGLE, JSON.NUMINCRBY, JSON.NUMMULTBY and JSON.STRAPPEND. Arithmetic keeps RedisJSON's
// number kinds: a signed 64-bit integer with an integer operand stays an integer (wrapping as
// RedisJSON's does on overflow); anything else becomes a float, and a float result that is not
// finite is refused.
import { wrongArityText } from '../../command-table';
import { bulk, error, integer, type Reply } from '../../reply';
import { isErrorReply } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import { formatJson, formatNumber } from '../json/json-format';
import { documentToChange, jsonArgument, jsonCommand, pathArgument, pathMissingOr, readDocument, selectPath, textReply, wrongPathType } from '../json/json-command-support';
import { currentAt, writeMatches } from '../json/json-match-writes';
import { deletePlaces, isAttached, outermostPlaces, replaceAt } from '../json/json-updates';
import { floatValue, integerValue, isNumber, isObject, isSignedInteger, toDouble, type JsonNumber, type JsonValue } from '../json/json-value';
import { MAX_STRING_BYTES, STRING_TOO_BIG } from '../string-size';

const ROOT = '.';

function jsonDel(args: readonly string[], ctx: CommandContext): Reply {
  if (args.length > 3) return error(wrongArityText(args[0].toLowerCase()));
  const path = pathArgument(args[2] ?? ROOT);
  const document = readDocument(ctx, args[1]);
  if (document === undefined || isErrorReply(document)) return document ?? integer(0);
  if (path.segments.length === 0) {
    ctx.db.delete(args[1]);
    return integer(1);
  }
  return integer(deletePlaces(outermostPlaces(selectPath(ctx, document.root, path))));
}

/** JSON.CLEAR empties arrays and objects and zeroes numbers; only its first path counts, as in RedisJSON. */
function jsonClear(args: readonly string[], ctx: CommandContext): Reply {
  const path = pathArgument(args[2] ?? ROOT);
  const document = documentToChange(ctx, args[1]);
  if (isErrorReply(document)) return document;
  let cleared = 0;
  for (const match of selectPath(ctx, document.root, path)) {
    const value = match.value;
    if (!isAttached(document, match)) continue;
    if (Array.isArray(value) && value.length > 0) value.length = 0;
    else if (isObject(value) && value.size > 0) value.clear();
    else if (isNumber(value) && toDouble(value) !== 0) replaceAt(document, match, integerValue(0n));
    else continue;
    cleared++;
  }
  return integer(cleared);
}

function jsonToggle(args: readonly string[], ctx: CommandContext): Reply {
  const path = pathArgument(args[2]);
  const document = documentToChange(ctx, args[1]);
  if (isErrorReply(document)) return document;
  return writeMatches(ctx, document, path, {
    fits: (value) => typeof value === 'boolean',
    nothingFits: pathMissingOr('not a bool'),
    write: (match) => {
      const toggled = !currentAt(document, match);
      replaceAt(document, match, toggled);
      return path.legacy ? bulk(String(toggled)) : integer(toggled ? 1 : 0);
    },
  });
}

const NOT_A_NUMBER_RESULT = error('result is not a number');
const BAD_NUMBER = error('bad input number');

function arithmetic(current: JsonNumber, operand: JsonNumber, operation: 'add' | 'multiply'): JsonNumber | undefined {
  if (isSignedInteger(current) && isSignedInteger(operand)) {
    const [a, b] = [current.value as bigint, operand.value as bigint];
    return integerValue(BigInt.asIntN(64, operation === 'add' ? a + b : a * b));
  }
  const result = operation === 'add' ? toDouble(current) + toDouble(operand) : toDouble(current) * toDouble(operand);
  return Number.isFinite(result) ? floatValue(result) : undefined;
}

function numberCommand(operation: 'add' | 'multiply') {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const path = pathArgument(args[2]);
    const document = documentToChange(ctx, args[1]);
    if (isErrorReply(document)) return document;
    const results: (JsonNumber | null)[] = [];
    let operand: JsonValue | undefined;
    const written = writeMatches(ctx, document, path, {
      fits: isNumber,
      nothingFits: pathMissingOr('does not contains a number'),
      write: (match) => {
        // Parsed at the first number it applies to (RedisJSON does not read it when nothing fits), once.
        operand ??= jsonArgument(args[3]);
        if (!isNumber(operand)) return BAD_NUMBER;
        const result = arithmetic(currentAt(document, match) as JsonNumber, operand, operation);
        if (result === undefined) return NOT_A_NUMBER_RESULT;
        replaceAt(document, match, result);
        results.push(result);
        return bulk(formatNumber(result));
      },
    });
    if (written.kind !== 'array') return written;
    // JSONPath answers one JSON array of the new numbers, null where a match is not a number.
    const numbers: JsonValue[] = written.items.map((item) => (item.kind === 'nil' ? null : (results.shift() as JsonNumber)));
    return textReply(formatJson(numbers, ctx.replyLimits.maxBytes));
  };
}

function jsonStrappend(args: readonly string[], ctx: CommandContext): Reply {
  if (args.length > 4) return error(wrongArityText('json.strappend'));
  const [pathText, valueText] = args.length === 4 ? [args[2], args[3]] : [ROOT, args[2]];
  const path = pathArgument(pathText);
  const document = documentToChange(ctx, args[1]);
  if (isErrorReply(document)) return document;
  let suffix: JsonValue | undefined;
  return writeMatches(ctx, document, path, {
    fits: (value) => typeof value === 'string',
    nothingFits: pathMissingOr('not a string'),
    bytesPerPlace: valueText.length,
    write: (match) => {
      // Parsed at the first string it goes to (RedisJSON does not read it when nothing fits), once.
      suffix ??= jsonArgument(valueText);
      if (typeof suffix !== 'string') return wrongPathType('string');
      const appended = (currentAt(document, match) as string) + suffix;
      const length = Buffer.byteLength(appended, 'utf8');
      if (length > MAX_STRING_BYTES) return STRING_TOO_BIG;
      replaceAt(document, match, appended);
      return integer(length);
    },
  });
}

export const jsonWriteHandlers: CommandHandlers = {
  'json.del': jsonCommand(jsonDel),
  'json.forget': jsonCommand(jsonDel),
  'json.clear': jsonCommand(jsonClear),
  'json.toggle': jsonCommand(jsonToggle),
  'json.numincrby': jsonCommand(numberCommand('add')),
  'json.nummultby': jsonCommand(numberCommand('multiply')),
  'json.strappend': jsonCommand(jsonStrappend),
};
