// Which API tokens the app has, by their stored hash, for the one case where a token is otherwise
// not looked up: its IP has spent its lookup budget (token-lookup-budget.ts) on tokens that did not
// verify. Without this, a flood of made-up tokens from an address many people share (an office, a
// NAT) turned a valid token first seen there into an anonymous caller (issue 34 finding 6); with it,
// such a token is read as any other, and a made-up one costs a set look-up, no database read.
// Only tokens that can verify are read (content-API ones that have not expired), newest first: an app
// with many expired or admin tokens filled the bound with them, in no order, and a new token past it
// was anonymous (issue 34 review).
// Cost: one query for the hashes of at most MAX_INDEXED_TOKENS tokens (Strapi keeps an HMAC-SHA512
// of each, 128 hex characters: about 1.3 MB for 10,000), made only while some IP's budget is spent
// and at most once per INDEX_TTL_MS for the whole process, whatever the number of requests or IPs;
// concurrent requests share one read. A token created since the last read is known within
// INDEX_TTL_MS. The index only decides whether to look a token up: the lookup (verify-caller.ts)
// still decides whether it verifies, so a token deleted since the read is refused as before. An app
// with more live tokens than MAX_INDEXED_TOKENS is read only up to it, the newest: an older token past
// it, from an IP whose budget is spent, is limited by IP as before (docs/tiers.md). A read that fails knows no token.
export const INDEX_TTL_MS = 10_000;
export const MAX_INDEXED_TOKENS = 10_000;

/** Reads the stored hashes of at most `limit` of the app's API tokens. */
export type ReadTokenHashes = (limit: number) => Promise<readonly string[]>;

interface Index {
  readonly hashes: ReadonlySet<string>;
  readonly until: number;
}

export class ApiTokenIndex {
  private index: Index | undefined;
  private reading: Promise<Index> | undefined;

  constructor(private readonly readHashes: ReadTokenHashes) {}

  /** Whether the app has a token whose stored hash is `hash` (as of at most INDEX_TTL_MS ago). */
  async has(hash: string, now: number): Promise<boolean> {
    const index = this.index !== undefined && this.index.until > now ? this.index : await this.read(now);
    return index.hashes.has(hash);
  }

  private read(now: number): Promise<Index> {
    this.reading ??= this.readHashes(MAX_INDEXED_TOKENS)
      .catch((): readonly string[] => [])
      .then((hashes) => {
        this.index = { hashes: new Set(hashes.slice(0, MAX_INDEXED_TOKENS)), until: now + INDEX_TTL_MS };
        this.reading = undefined;
        return this.index;
      });
    return this.reading;
  }
}
