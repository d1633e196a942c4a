// Turns caller-controlled values into identifiers that are safe inside store keys, by one rule:
// every byte outside [A-Za-z0-9._~!$&'()+,;@/-] is percent-encoded (so no `:`, glob character
// `* ? [ ] \`, `=`, `%`-lookalike or control character survives), and a result longer than 128
// characters is replaced by `%sha256%<hex>` — a form the encoding itself can never produce.
import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

const SAFE = /^[A-Za-z0-9._~!$&'()+,;@/-]*$/;
const UNSAFE_CHAR = /[^A-Za-z0-9._~!$&'()+,;@/-]/g;
export const MAX_IDENTIFIER_LENGTH = 128;

export function normaliseIdentifier(value: string): string {
  const encoded = SAFE.test(value)
    ? value
    : Buffer.from(value, 'utf8')
        .toString('latin1')
        .replace(UNSAFE_CHAR, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  if (encoded.length <= MAX_IDENTIFIER_LENGTH) return encoded;
  return `%sha256%${createHash('sha256').update(value, 'utf8').digest('hex')}`;
}

/**
 * The address of a client IP that a proxy wrote with its port (`203.0.113.9:51234`,
 * `[2001:db8::1]:443`, `[2001:db8::1]`), so that every port is not a new caller; any other value as it is.
 */
export function clientAddress(ip: string): string {
  if (ip.startsWith('[')) {
    const end = ip.indexOf(']');
    const address = ip.slice(1, end);
    const rest = ip.slice(end + 1);
    return end > 0 && isIPv6(address) && (rest === '' || /^:\d{1,5}$/.test(rest)) ? address : ip;
  }
  const colon = ip.indexOf(':');
  if (colon < 0 || colon !== ip.lastIndexOf(':')) return ip;
  const address = ip.slice(0, colon);
  return isIPv4(address) && /^\d{1,5}$/.test(ip.slice(colon + 1)) ? address : ip;
}

/** Expands an IPv6 address to its eight 16-bit groups. */
function ipv6Groups(address: string): number[] {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const parse = (part: string): number[] => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const front = parse(head);
  if (tail === undefined) return front;
  const back = parse(tail);
  return [...front, ...new Array(8 - front.length - back.length).fill(0), ...back];
}

/**
 * The caller's address as an identifier: IPv4-mapped IPv6 becomes plain IPv4, and IPv6 is grouped
 * by its first `subnetBits` bits (one /64 is what one customer typically gets).
 */
export function ipIdentifier(ip: string, subnetBits: number): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (isIPv4(ip) || !isIPv6(ip) || ip.includes('.')) return normaliseIdentifier(ip);
  const groups = ipv6Groups(ip.split('%')[0]);
  let remaining = subnetBits;
  const masked = groups.map((group) => {
    const bits = Math.max(0, Math.min(16, remaining));
    remaining -= 16;
    return bits === 0 ? 0 : group & (0xffff << (16 - bits)) & 0xffff;
  });
  return `${masked.map((group) => group.toString(16)).join('.')}/${subnetBits}`;
}
