// The two reply shapes of RedisJSON's writing commands, shared by them all: a JSONPath answers one
// entry per match (the write's result, or nil where the match has the wrong type); a legacy path
// writes at every fitting match and answers the last result, or an error when nothing fits.
import { array, NIL, type ErrorReply, type Reply } from '../../reply';
import type { CommandContext } from '../handler';
import type { JsonDocumentValue } from '../keyspace';
import { refuseCopies, selectPath } from './json-command-support';
import type { JsonPath } from './json-path';
import type { Match } from './json-path-select';
import { inMutationOrder } from './json-updates';
import type { JsonValue } from './json-value';

export interface MatchWrite {
  /** Whether the command writes at a value of this type. */
  readonly fits: (value: JsonValue) => boolean;
  /** Writes at one place and answers its result; an error stops the command. */
  readonly write: (match: Match) => Reply;
  /** The legacy path's error when no match fits. */
  readonly nothingFits: ErrorReply;
  /** Commands that move array items (insert, pop, trim) write deepest places and highest indexes first. */
  readonly movesItems?: boolean;
  /** Bytes the command adds at each place (appends, inserts: a heap estimate), bounded over all places by refuseCopies. */
  readonly bytesPerPlace?: number;
}

/** The value at a match's place now (an earlier write at the same place may have replaced it). */
export function currentAt(document: JsonDocumentValue, match: Match): JsonValue {
  const { container, key } = match;
  if (container === undefined) return document.root;
  return Array.isArray(container) ? container[key as number] : (container.get(key as string) as JsonValue);
}

export function writeMatches(ctx: CommandContext, document: JsonDocumentValue, path: JsonPath, command: MatchWrite): Reply {
  const matches = selectPath(ctx, document.root, path);
  const fitting = matches.filter((match) => command.fits(match.value));
  if (path.legacy && fitting.length === 0) return command.nothingFits;
  const tooMany = refuseCopies(ctx, fitting.length, command.bytesPerPlace ?? 0);
  if (tooMany) return tooMany;
  const order = command.movesItems ? inMutationOrder(fitting) : fitting.map((match) => ({ match, position: 0 }));
  const results = new Map<Match, Reply>();
  let last: Reply = NIL;
  for (const { match } of order) {
    last = command.write(match);
    if (last.kind === 'error') return last;
    results.set(match, last);
  }
  return path.legacy ? last : array(matches.map((match) => results.get(match) ?? NIL));
}
