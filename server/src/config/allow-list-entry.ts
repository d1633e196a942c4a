// What an allow-list entry may be, read once at boot: an IP address, a subnet (`10.0.0.0/8`,
// `2001:db8::/64`) or `header.<NAME>:<value>`. Each kind applies to its own identifier source only,
// so a caller cannot send an allow-listed IP as its API key header and go unlimited.
import { isIP } from 'node:net';

export type AllowListEntry =
  | { readonly kind: 'address'; readonly address: string }
  | { readonly kind: 'subnet'; readonly address: string; readonly bits: number; readonly family: 'ipv4' | 'ipv6' }
  | { readonly kind: 'header'; readonly header: string; readonly value: string };

/** A header name as HTTP allows it (RFC 9110 token), as `header.<NAME>` identifier sources use. */
const HEADER_ENTRY = /^header\.([A-Za-z0-9!#$%&'*+.^_`|~-]+):(.+)$/s;

export const ALLOW_LIST_FORMAT = 'an IP address, a subnet such as 10.0.0.0/8, or header.<NAME>:<value>';

/** The entry, or undefined when it is none of the accepted forms. */
export function parseAllowListEntry(text: string): AllowListEntry | undefined {
  const header = HEADER_ENTRY.exec(text);
  if (header) return { kind: 'header', header: header[1].toLowerCase(), value: header[2] };
  if (isIP(text) !== 0) return { kind: 'address', address: text };
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const address = text.slice(0, slash);
  const bitsText = text.slice(slash + 1);
  const version = isIP(address);
  const bits = Number(bitsText);
  if (version === 0 || !/^\d{1,3}$/.test(bitsText) || bits > (version === 4 ? 32 : 128)) return undefined;
  return { kind: 'subnet', address, bits, family: version === 4 ? 'ipv4' : 'ipv6' };
}
