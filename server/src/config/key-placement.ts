// Where the plugin's keys sit in the store. 'flat' is the documented layout (config/keys.ts), for one
// node, the REST stores and the embedded one. 'slotted' is the same layout for a Redis Cluster
// (README, "Keys on a Redis Cluster"), where one script may only touch keys of one slot and no slot
// should take a command from every request:
// - counters carry their identifier as the hash tag, `<prefix>:<method>:<route>:{<identifier>}:<limiter>`,
//   so a caller's windows, and all its strategies that key it the same way, share a slot, and
//   callers spread over the slots (identifiers never hold a brace: normalisation encodes them);
// - a strategy's live limit, which every limit script reads, is kept once per slot
//   (`<live scope>:{<slot tag>}`, config/cluster-slots.ts), beside the counters that read it;
// - the deny list's three keys share the tag `{<prefix>:denyList}` and the analytics events the tag
//   `{<prefix>}`: one slot each, which every request with the deny list (or analytics) on reaches
//   (README states the measured ceiling).
import type { StoreAddress } from '../../../shared/store-address';

export type KeyPlacement = 'flat' | 'slotted';

export const keyPlacementOf = (address: StoreAddress | undefined): KeyPlacement => (address?.kind === 'redis' && address.topology === 'cluster' ? 'slotted' : 'flat');

/**
 * What tags an empty identifier: Redis hashes a whole key whose first braces are empty (`{}`), which
 * would put a caller's windows in different slots. A lone `%` is never a normalised identifier
 * (http/normalise-identifier.ts writes `%` only before two hex digits), so it reads back one way.
 */
const EMPTY_IDENTIFIER_TAG = '%';

/** The identifier as it appears in counter keys. */
export function identifierInKey(identifier: string, placement: KeyPlacement): string {
  return placement === 'flat' ? identifier : `{${identifier === '' ? EMPTY_IDENTIFIER_TAG : identifier}}`;
}

/** The identifier of a key's identifier part, either placement (identifiers never hold a brace). */
export function identifierFromKey(written: string): string {
  if (!written.startsWith('{') || !written.endsWith('}')) return written;
  const tag = written.slice(1, -1);
  return tag === EMPTY_IDENTIFIER_TAG ? '' : tag;
}

/** The prefix @upstash/ratelimit's Analytics writes its events under (`<it>:events:<hour>`). */
export const eventsPrefix = (prefix: string, placement: KeyPlacement): string => (placement === 'slotted' ? `{${prefix}}` : prefix);
