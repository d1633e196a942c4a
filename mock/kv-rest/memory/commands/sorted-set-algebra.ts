// ZUNION, ZINTER, ZDIFF (with WEIGHTS, AGGREGATE, WITHSCORES), their STORE forms and ZINTERCARD.
// Plain sets are accepted as inputs with every score 1, as Redis does.
import { error, integer, type ErrorReply, type Reply } from '../../reply';
import { isErrorReply, parseInteger, SYNTAX_ERROR } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import { WRONGTYPE } from '../keyspace';
import { reservedMembersReply, storeZSet } from './sorted-set-values';

type Operation = 'union' | 'inter' | 'diff';
type Aggregate = 'sum' | 'min' | 'max';
type Scores = Map<string, number>;

function scoresAt(ctx: CommandContext, key: string): Scores | ErrorReply {
  const value = ctx.db.lookup(key, ctx.now);
  if (value === undefined) return new Map();
  if (value.type === 'zset') return new Map(value.zset.all().map((entry) => [entry.member, entry.score]));
  if (value.type === 'set') return new Map([...value.members].map((member) => [member, 1]));
  return WRONGTYPE;
}

function aggregate(how: Aggregate, a: number, b: number): number {
  const result = how === 'sum' ? a + b : how === 'min' ? Math.min(a, b) : Math.max(a, b);
  return Number.isNaN(result) ? 0 : result;
}

function combine(operation: Operation, inputs: Scores[], weights: number[], how: Aggregate): Scores {
  const weighted = inputs.map((scores, i) => new Map([...scores].map(([member, score]) => [member, Number.isNaN(score * weights[i]) ? 0 : score * weights[i]])));
  if (operation === 'diff') {
    const [first, ...rest] = inputs;
    return new Map([...first].filter(([member]) => !rest.some((scores) => scores.has(member))));
  }
  if (operation === 'inter') {
    const [first, ...rest] = weighted;
    const result: Scores = new Map();
    for (const [member, score] of first) {
      if (!rest.every((scores) => scores.has(member))) continue;
      result.set(member, rest.reduce((total, scores) => aggregate(how, total, scores.get(member)!), score));
    }
    return result;
  }
  const result: Scores = new Map();
  for (const scores of weighted) {
    for (const [member, score] of scores) result.set(member, result.has(member) ? aggregate(how, result.get(member)!, score) : score);
  }
  return result;
}

interface AlgebraArgs {
  readonly keys: string[];
  readonly weights: number[];
  readonly aggregate: Aggregate;
  readonly withScores: boolean;
}

function parseAlgebra(args: readonly string[], numkeysIndex: number, operation: Operation, allowWithScores: boolean): AlgebraArgs | ErrorReply {
  const name = args[0].toLowerCase();
  const count = parseInteger(args[numkeysIndex]);
  if (isErrorReply(count)) return count;
  if (count < 1) return error(`ERR at least 1 input key is needed for '${name}' command`);
  const first = numkeysIndex + 1;
  if (first + count > args.length) return SYNTAX_ERROR;
  const keys = args.slice(first, first + count);
  const parsed = { keys, weights: keys.map(() => 1), aggregate: 'sum' as Aggregate, withScores: false };
  for (let index = first + count; index < args.length; index++) {
    const option = args[index].toLowerCase();
    if (option === 'weights' && operation !== 'diff' && index + count < args.length) {
      for (let i = 0; i < count; i++) {
        const weight = Number(args[index + 1 + i]);
        if (args[index + 1 + i].trim() === '' || Number.isNaN(weight)) return error('ERR weight value is not a float');
        parsed.weights[i] = weight;
      }
      index += count;
    } else if (option === 'aggregate' && operation !== 'diff' && index + 1 < args.length) {
      const how = args[++index].toLowerCase();
      if (how !== 'sum' && how !== 'min' && how !== 'max') return SYNTAX_ERROR;
      parsed.aggregate = how;
    } else if (option === 'withscores' && allowWithScores) {
      parsed.withScores = true;
    } else {
      return SYNTAX_ERROR;
    }
  }
  return parsed;
}

function run(ctx: CommandContext, operation: Operation, parsed: AlgebraArgs): Scores | ErrorReply {
  const inputs: Scores[] = [];
  for (const key of parsed.keys) {
    const scores = scoresAt(ctx, key);
    if (isErrorReply(scores)) return scores;
    inputs.push(scores);
  }
  return combine(operation, inputs, parsed.weights, parsed.aggregate);
}

const sortedEntries = (scores: Scores) =>
  [...scores].map(([member, score]) => ({ member, score })).sort((a, b) => a.score - b.score || (a.member < b.member ? -1 : a.member > b.member ? 1 : 0));

function algebra(operation: Operation, store: boolean) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const parsed = parseAlgebra(args, store ? 2 : 1, operation, !store);
    if (isErrorReply(parsed)) return parsed;
    const result = run(ctx, operation, parsed);
    if (isErrorReply(result)) return result;
    if (store) return integer(storeZSet(ctx, args[1], sortedEntries(result)));
    return reservedMembersReply(sortedEntries(result), parsed.withScores, ctx);
  };
}

function zintercard(args: readonly string[], ctx: CommandContext): Reply {
  const count = parseInteger(args[1]);
  if (isErrorReply(count)) return count;
  if (count < 1) return error('ERR numkeys should be greater than 0');
  if (args.length < 2 + count) return error("ERR Number of keys can't be greater than number of args");
  const rest = args.slice(2 + count);
  let limit = 0;
  if (rest.length > 0) {
    if (rest.length !== 2 || rest[0].toLowerCase() !== 'limit') return SYNTAX_ERROR;
    const parsed = parseInteger(rest[1]);
    if (isErrorReply(parsed) || parsed < 0) return error("ERR LIMIT can't be negative");
    limit = parsed;
  }
  const keys = args.slice(2, 2 + count);
  const result = run(ctx, 'inter', { keys, weights: keys.map(() => 1), aggregate: 'sum', withScores: false });
  if (isErrorReply(result)) return result;
  return integer(limit > 0 ? Math.min(limit, result.size) : result.size);
}

export const sortedSetAlgebraHandlers: CommandHandlers = {
  zunion: algebra('union', false),
  zinter: algebra('inter', false),
  zdiff: algebra('diff', false),
  zunionstore: algebra('union', true),
  zinterstore: algebra('inter', true),
  zdiffstore: algebra('diff', true),
  zintercard,
};
