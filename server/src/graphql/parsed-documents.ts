// GraphQL documents parsed once, with bounds, and remembered by digest. graphql-js's own parser
// (the one instance the app's GraphQL plugin uses) reads each document; before it, a linear scan
// refuses brackets nested deeper than its recursion can take (nesting-scan.ts), and `maxTokens`
// stops it on long documents; after it, one pass counts aliases and repeated fields (maxAliases)
// and fragment spreads (maxFragmentSpreads), and one follows fragments to bound the depth of
// selections and find fragment cycles. Apollo parses the same text again to run it, and spends
// about 0.46 s validating a document of 10,000 aliases, so the plugin's share is kept to one parse
// per distinct document: results (documents, and refusals) are remembered in an LRU keyed by the
// text's SHA-256 (a short text is found by itself, without hashing it again), bounded by entries
// and by the text bytes they hold (an AST is some tens of times its text; a short text is held as
// well).
// The digest is hex, as Apollo's automatic persisted queries name a document, so a request that sends
// only the hash is charged for the document it runs when the plugin has read that document
// (`remembered`); otherwise the plugin answers PersistedQueryNotFound itself (graphql-charges.ts).
// A text that is not well-formed UTF-16 is refused before any lookup and never remembered: its
// UTF-8, hence its digest, is that of another text.
import { createHash } from 'node:crypto';
import { GraphQLError, Kind, parse, visit, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import { firstNestingPast } from './nesting-scan';

export interface DocumentBounds {
  readonly maxTokens: number;
  readonly maxDepth: number;
  readonly maxAliases: number;
  readonly maxFragmentSpreads: number;
}

export type ParsedDocument =
  /** Parsed within the bounds: its fragments by name, for the walks that follow them. */
  | { readonly kind: 'document'; readonly document: DocumentNode; readonly fragments: ReadonlyMap<string, FragmentDefinitionNode> }
  /** Not GraphQL: Apollo answers its own syntax error. */
  | { readonly kind: 'unparsable' }
  /** Past a bound (or a fragment cycle): the plugin answers 400 with this message. */
  | { readonly kind: 'refused'; readonly message: string };

/** Remembered documents: this many at most, holding at most this many bytes of text. */
const CACHE_ENTRIES = 1000;
const CACHE_TEXT_BYTES = 1_048_576;

/**
 * The brackets the parser may meet nested: selection sets up to maxDepth, and room for arguments'
 * object and list values inside them. graphql-js overflowed at about 3,000; this stays below 450.
 */
const parserNesting = (maxDepth: number): number => maxDepth * 2 + 32;

/** How deep selections nest in the operations, following fragments (each field, inline fragment and spread is a level). */
function selectionDepthProblem(document: DocumentNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>, maxDepth: number): string | undefined {
  // A fragment's height is the same wherever it is spread: computed once, so the walk is linear.
  const heights = new Map<string, number>();
  const inProgress = new Set<string>();
  let problem: string | undefined;
  const tooDeep = () => (problem ??= `This document nests selections more than ${maxDepth} deep (graphql.maxDepth)`);

  const heightOf = (selectionSet: SelectionSetNode | undefined, depth: number): number => {
    if (!selectionSet || problem) return 0;
    if (depth > maxDepth) return tooDeep(), 0;
    let height = 0;
    for (const selection of selectionSet.selections) {
      let below: number;
      if (selection.kind === Kind.FRAGMENT_SPREAD) below = fragmentHeight(selection.name.value, depth);
      else below = heightOf(selection.selectionSet, depth + 1);
      height = Math.max(height, 1 + below);
      if (depth + height - 1 > maxDepth) tooDeep();
      if (problem) return 0;
    }
    return height;
  };
  const fragmentHeight = (name: string, depth: number): number => {
    const known = heights.get(name);
    if (known !== undefined) {
      if (depth + known > maxDepth) tooDeep();
      return known;
    }
    if (inProgress.has(name)) return (problem ??= `The fragment "${name.slice(0, 64)}" spreads itself (a fragment cycle)`), 0;
    const fragment = fragments.get(name);
    // An unknown fragment is Apollo's validation error: nothing below it runs.
    if (!fragment) return 0;
    inProgress.add(name);
    const height = heightOf(fragment.selectionSet, depth + 1);
    inProgress.delete(name);
    heights.set(name, height);
    return height;
  };
  for (const definition of document.definitions) if (definition.kind === Kind.OPERATION_DEFINITION) heightOf(definition.selectionSet, 1);
  return problem;
}

/**
 * What graphql-js's validation (OverlappingFieldsCanBeMerged, which Apollo runs) compares pair by pair,
 * counted, not compared: one pass, linear.
 * - `aliases`: the fields that are aliased or repeat a response key of their selection set. It compares
 *   the fields of one response key pairwise, in a selection set with the inline fragments in it: 2,000
 *   unaliased `articles { title }` took it 781 ms while counting 0 aliases (review of issue 35).
 * - `spreads`: the fragment spreads, as written. It compares the fragments spread in a selection set
 *   pairwise, and those of two fields it compares: 400 spreads of `me { name }` side by side took it
 *   161 ms (graphql 16.15). It remembers each pair of fragments and each selection set and fragment it
 *   compared, so its work grows with the selection sets times the fragments they reach, at most the
 *   square of the spreads written, not with how often a fragment is followed (docs/graphql.md,
 *   "Document bounds"). Inline fragments are not compared as such: their fields are
 *   merged and counted in `aliases`.
 */
function aliasesAndSpreads(document: DocumentNode): { aliases: number; spreads: number } {
  let aliases = 0;
  let spreads = 0;
  const countIn = (selectionSet: SelectionSetNode, keys: Set<string>): void => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) countIn(selection.selectionSet, keys);
      else if (selection.kind === Kind.FRAGMENT_SPREAD) spreads++;
      else {
        const key = (selection.alias ?? selection.name).value;
        if (selection.alias || keys.has(key)) aliases++;
        keys.add(key);
      }
    }
  };
  visit(document, {
    SelectionSet(node, _key, parent) {
      // An inline fragment's selections were counted with the selection set it is in (nesting is bounded by the scan before the parse).
      if (!isInlineFragment(parent)) countIn(node, new Set());
    },
  });
  return { aliases, spreads };
}

const isInlineFragment = (node: unknown): boolean => typeof node === 'object' && node !== null && (node as { kind?: unknown }).kind === Kind.INLINE_FRAGMENT;

function parseWithin(text: string, bounds: DocumentBounds): ParsedDocument {
  const nesting = parserNesting(bounds.maxDepth);
  if (firstNestingPast(text, nesting) >= 0) return { kind: 'refused', message: `This document nests brackets more than ${nesting} deep (twice graphql.maxDepth and 32)` };
  let document: DocumentNode;
  try {
    document = parse(text, { maxTokens: bounds.maxTokens, noLocation: true });
  } catch (failure) {
    if (failure instanceof GraphQLError && failure.message.includes('tokens. Parsing aborted')) return { kind: 'refused', message: `This document has more than ${bounds.maxTokens} tokens (graphql.maxTokens)` };
    if (failure instanceof RangeError) return { kind: 'refused', message: 'This document nests too deeply to be read' };
    return { kind: 'unparsable' };
  }
  const { aliases, spreads } = aliasesAndSpreads(document);
  if (aliases > bounds.maxAliases) return { kind: 'refused', message: `This document has ${aliases} aliases and repeated fields, more than the ${bounds.maxAliases} allowed (graphql.maxAliases)` };
  if (spreads > bounds.maxFragmentSpreads) return { kind: 'refused', message: `This document has ${spreads} fragment spreads, more than the ${bounds.maxFragmentSpreads} allowed (graphql.maxFragmentSpreads)` };
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION && !fragments.has(definition.name.value)) fragments.set(definition.name.value, definition);
  const problem = selectionDepthProblem(document, fragments, bounds.maxDepth);
  return problem ? { kind: 'refused', message: problem } : { kind: 'document', document, fragments };
}

interface Remembered {
  readonly parsed: ParsedDocument;
  readonly bytes: number;
  /** The text, when it is short enough to be looked up as itself. */
  readonly text: string | undefined;
}

/**
 * A text up to this length is looked up as itself (V8 hashes a string natively, once, in full up to
 * 16,383 characters; longer strings hash by their length alone), a longer one by its SHA-256:
 * building a SHA-256 per request was some 5% of what the plugin added to a small GraphQL request.
 */
const TEXT_KEY_LENGTH = 4096;

/** A text that is not well-formed UTF-16 (review of issue 35: a lone surrogate's unparsable text and its runnable U+FFFD twin shared a digest, and 5 logins let 300 run). */
const ILL_FORMED: ParsedDocument = { kind: 'refused', message: 'This document holds a lone surrogate (such as \\ud800), which is not text: send it as well-formed UTF-16' };

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The documents of one limiter: parsed with its bounds, remembered by digest (and the short ones by text). */
export class ParsedDocuments {
  /** Every remembered document by its SHA-256, least recently used first. */
  private readonly byDigest = new Map<string, Remembered>();
  /** The digests of the short remembered texts. */
  private readonly digestOfText = new Map<string, string>();
  private bytes = 0;

  constructor(private readonly bounds: DocumentBounds) {}

  parse(text: string): ParsedDocument {
    // Checked before either lookup, and never remembered: a lone surrogate (JSON's `\ud800`) encodes
    // to UTF-8 as U+FFFD does, so an ill-formed text shares its SHA-256 with a well-formed twin (here,
    // and in Apollo's document store and APQ cache); found by digest, one would be charged as the other.
    if (!text.isWellFormed()) return ILL_FORMED;
    const short = text.length <= TEXT_KEY_LENGTH;
    const digest = (short ? this.digestOfText.get(text) : undefined) ?? sha256(text);
    const known = this.byDigest.get(digest);
    if (known) {
      // Most recently used last: the first entry is the one to forget.
      this.byDigest.delete(digest);
      this.byDigest.set(digest, known);
      return known.parsed;
    }
    const parsed = parseWithin(text, this.bounds);
    this.remember(digest, { parsed, bytes: text.length, text: short ? text : undefined });
    return parsed;
  }

  /** The document whose SHA-256 (hex) is `hash`, when it is remembered. */
  remembered(hash: string): ParsedDocument | undefined {
    return this.byDigest.get(hash)?.parsed;
  }

  private remember(digest: string, entry: Remembered): void {
    if (entry.bytes > CACHE_TEXT_BYTES / 8) return;
    while (this.byDigest.size >= CACHE_ENTRIES || this.bytes + entry.bytes > CACHE_TEXT_BYTES) {
      const [oldest, forgotten] = this.byDigest.entries().next().value as [string, Remembered];
      this.byDigest.delete(oldest);
      if (forgotten.text !== undefined) this.digestOfText.delete(forgotten.text);
      this.bytes -= forgotten.bytes;
    }
    this.byDigest.set(digest, entry);
    if (entry.text !== undefined) this.digestOfText.set(entry.text, digest);
    this.bytes += entry.bytes;
  }
}
