// The allow-list, compiled once: IP addresses and subnets admit callers identified by IP (including
// header strategies' callers that sent no header), `header.<NAME>:<value>` entries admit callers of
// that header with exactly that value. An entry of one source never admits a caller of another, and
// a verified user or API token (identifier source `user`) is never admitted by an IP entry. A header
// whose values are hashed is compared on its hash, the form its callers' identities carry.
import { BlockList, isIP } from 'node:net';
import { parseAllowListEntry } from '../config/allow-list-entry';
import type { HeaderValueHasher } from './header-privacy';
import type { Identity } from './identify';
import { ipIdentifier } from './normalise-identifier';

export type AllowList = (identity: Identity) => boolean;

/** One spelling per address (`2001:DB8::1` and `2001:db8:0::1` are one; `::ffff:1.2.3.4` is `1.2.3.4`). */
const canonicalAddress = (address: string): string => ipIdentifier(address, 128);

export function compileAllowList(entries: readonly string[], hasherFor: (header: string) => HeaderValueHasher): AllowList {
  const addresses = new Set<string>();
  const subnets = new BlockList();
  let hasSubnets = false;
  const headerValues = new Set<string>();
  for (const text of entries) {
    // The config schema has already refused entries of no accepted form.
    const entry = parseAllowListEntry(text)!;
    if (entry.kind === 'address') addresses.add(canonicalAddress(entry.address));
    else if (entry.kind === 'subnet') {
      subnets.addSubnet(entry.address, entry.bits, entry.family);
      hasSubnets = true;
    } else headerValues.add(`${entry.header}\n${hasherFor(entry.header)?.(entry.value) ?? entry.value}`);
  }
  if (addresses.size === 0 && !hasSubnets && headerValues.size === 0) return () => false;
  return (identity) => {
    if (identity.source === 'user') return false;
    if (identity.source === 'header') return headerValues.has(`${identity.header}\n${identity.value}`);
    if (addresses.has(canonicalAddress(identity.address))) return true;
    const family = hasSubnets ? isIP(identity.address) : 0;
    return family !== 0 && subnets.check(identity.address, family === 4 ? 'ipv4' : 'ipv6');
  };
}
