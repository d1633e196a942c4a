// The allow-list, compiled once: IP addresses and subnets admit callers identified by IP (including
// header strategies' callers that sent no header), `header.<NAME>:<value>` entries admit callers of
// that header with exactly that value. An entry of one source never admits a caller of another, and
// a verified user or API token (identifier source `user`) is never admitted by an IP entry. A header
// whose values are hashed is compared on its hash, the form its callers' identities carry: its
// entries are hashed when its first caller is checked, since the deployment's key may only be read
// from the store after boot (header-hash-key.ts), and a caller of that header exists only once it is;
// they are hashed again when that key changes (`keyGeneration`: a stored key adopted after it was lost).
import { BlockList, isIP } from 'node:net';
import { parseAllowListEntry } from '../config/allow-list-entry';
import type { HeaderValueHasher } from './header-privacy';
import type { Identity } from './identify';
import { ipIdentifier } from './normalise-identifier';

export type AllowList = (identity: Identity) => boolean;

/** One spelling per address (`2001:DB8::1` and `2001:db8:0::1` are one; `::ffff:1.2.3.4` is `1.2.3.4`). */
const canonicalAddress = (address: string): string => ipIdentifier(address, 128);

export function compileAllowList(entries: readonly string[], hasherFor: (header: string) => HeaderValueHasher, keyGeneration: () => number = () => 0): AllowList {
  const addresses = new Set<string>();
  const subnets = new BlockList();
  let hasSubnets = false;
  /** Per header, its entries' values as written; and, once its first caller was checked, as its identities carry them under the key of a generation. */
  const written = new Map<string, string[]>();
  const keyed = new Map<string, { readonly generation: number; readonly values: Set<string> }>();
  for (const text of entries) {
    // The config schema has already refused entries of no accepted form.
    const entry = parseAllowListEntry(text)!;
    if (entry.kind === 'address') addresses.add(canonicalAddress(entry.address));
    else if (entry.kind === 'subnet') {
      subnets.addSubnet(entry.address, entry.bits, entry.family);
      hasSubnets = true;
    } else {
      const values = written.get(entry.header) ?? [];
      values.push(entry.value);
      written.set(entry.header, values);
    }
  }
  if (addresses.size === 0 && !hasSubnets && written.size === 0) return () => false;
  const valuesOf = (header: string): Set<string> => {
    const generation = keyGeneration();
    let entry = keyed.get(header);
    if (entry === undefined || entry.generation !== generation) {
      const hash = hasherFor(header);
      entry = { generation, values: new Set((written.get(header) ?? []).map((value) => hash?.(value) ?? value)) };
      keyed.set(header, entry);
    }
    return entry.values;
  };
  return (identity) => {
    if (identity.source === 'user') return false;
    if (identity.source === 'header') return written.has(identity.header) && valuesOf(identity.header).has(identity.value);
    if (addresses.has(canonicalAddress(identity.address))) return true;
    const family = hasSubnets ? isIP(identity.address) : 0;
    return family !== 0 && subnets.check(identity.address, family === 4 ? 'ipv4' : 'ipv6');
  };
}
