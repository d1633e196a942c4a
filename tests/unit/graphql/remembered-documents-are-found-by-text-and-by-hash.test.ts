// Issue 35 (the cost of a GraphQL decision): remembered documents are found without a SHA-256 per
// request when their text is short (parsed-documents.ts keeps the short texts as keys beside the
// digests). Whatever the mix of short and long texts, repeats and evictions, the cache must behave as
// the one LRU it is: a document is parsed again only once it was forgotten, by entries (1,000) or by
// text bytes (1 MiB, none above 128 KiB), and a remembered document is found by its hash (Apollo's
// persisted queries) as by its text. fast-check drives it against a model of that LRU.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import * as graphql from 'graphql';
import { ParsedDocuments } from '../../../server/src/graphql/parsed-documents';

jest.mock('graphql', () => {
  const actual = jest.requireActual('graphql');
  return { ...actual, parse: jest.fn(actual.parse) };
});

const ENTRIES = 1000;
const TEXT_BYTES = 1_048_576;
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A document of about `length` characters: a query padded with a comment (which the parser skips). */
const documentOf = (name: number, length: number): string => {
  const query = `query Q${name} { ping { ok } }`;
  return `${query}\n#${'x'.repeat(Math.max(0, length - query.length - 2))}`;
};

/** The LRU the cache must be: texts by recency, with their bytes. */
class ModelCache {
  private readonly texts = new Map<string, number>();
  private bytes = 0;

  /** Whether `text` is remembered; it is then the most recent, or remembered now (a parse). */
  use(text: string): boolean {
    if (this.texts.has(text)) {
      this.texts.delete(text);
      this.texts.set(text, text.length);
      return true;
    }
    if (text.length > TEXT_BYTES / 8) return false;
    while (this.texts.size >= ENTRIES || this.bytes + text.length > TEXT_BYTES) {
      const [oldest, bytes] = this.texts.entries().next().value as [string, number];
      this.texts.delete(oldest);
      this.bytes -= bytes;
    }
    this.texts.set(text, text.length);
    this.bytes += text.length;
    return false;
  }

  has(text: string): boolean {
    return this.texts.has(text);
  }
}

const parses = () => jest.mocked(graphql.parse).mock.calls.length;

describe('remembered documents', () => {
  it('are parsed again only once forgotten, and found by their hash as by their text', () => {
    // Short texts (found as themselves), long ones (by digest), ones too long to remember.
    const lengths = fc.constantFrom(40, 4000, 4096, 4097, 60_000, 140_000);
    const requests = fc.array(fc.record({ name: fc.integer({ min: 0, max: 40 }), length: lengths, byHash: fc.boolean() }), { minLength: 1, maxLength: 120 });
    fc.assert(
      fc.property(requests, fc.integer({ min: 0, max: 1200 }), (sequence, fillers) => {
        const documents = new ParsedDocuments({ maxTokens: 10_000, maxDepth: 15, maxAliases: 100, maxFragmentSpreads: 50 });
        const model = new ModelCache();
        // Distinct short documents first, so that eviction by entries happens within the run.
        for (let filler = 0; filler < fillers; filler++) {
          const text = documentOf(1000 + filler, 40);
          documents.parse(text);
          model.use(text);
        }
        for (const { name, length, byHash } of sequence) {
          const text = documentOf(name, length);
          if (byHash) {
            expect({ text: text.length, found: documents.remembered(sha256(text))?.kind }).toEqual({ text: text.length, found: model.has(text) ? 'document' : undefined });
            continue;
          }
          const before = parses();
          expect(documents.parse(text).kind).toBe('document');
          expect({ text: text.length, parsed: parses() - before }).toEqual({ text: text.length, parsed: model.use(text) ? 0 : 1 });
        }
        // The short texts held as keys are those of remembered documents only (a flood of distinct
        // documents must not grow the index past the cache's bound).
        const held = (documents as unknown as { digestOfText: Map<string, string> }).digestOfText;
        expect([...held.keys()].filter((text) => !model.has(text))).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});
