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

/** Expands a valid IPv6 address (no zone) to its eight 16-bit groups; a dotted tail (`::ffff:1.2.3.4`) is its last two groups. */
function ipv6Groups(address: string): number[] {
  const tail = address.lastIndexOf(':');
  const last = address.slice(tail + 1);
  const hex = last.includes('.') ? `${address.slice(0, tail + 1)}${dottedGroups(last)}` : address;
  const [head, rest] = hex.includes('::') ? hex.split('::') : [hex, undefined];
  const parse = (part: string): number[] => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const front = parse(head);
  if (rest === undefined) return front;
  const back = parse(rest);
  return [...front, ...new Array(8 - front.length - back.length).fill(0), ...back];
}

/** `1.2.3.4` as the two hex groups `102:304`. */
function dottedGroups(ipv4: string): string {
  const [a, b, c, d] = ipv4.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/** Whether eight groups are an IPv4-mapped address (`::ffff:a.b.c.d` in any spelling). */
const isIpv4Mapped = (groups: readonly number[]): boolean => groups[5] === 0xffff && groups.slice(0, 5).every((group) => group === 0);

/**
 * The caller's address as an identifier: IPv4-mapped IPv6 becomes plain IPv4, and IPv6 is grouped
 * by its first `subnetBits` bits (one /64 is what one customer typically gets). Every spelling of
 * one address (upper case, zeros written out, a dotted tail, a hex-written mapped IPv4) gives one
 * identifier, so a deny or an allow-list entry written in any of them names the caller it means.
 */
export function ipIdentifier(ip: string, subnetBits: number): string {
  // Without a `:` it is no IPv6 address, mapped or not (the usual IPv4 caller skips both parses).
  if (!ip.includes(':')) return normaliseIdentifier(ip);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!isIPv6(ip)) return normaliseIdentifier(ip);
  const groups = ipv6Groups(ip.split('%')[0]);
  if (isIpv4Mapped(groups)) return `${groups[6] >> 8}.${groups[6] & 255}.${groups[7] >> 8}.${groups[7] & 255}`;
  let remaining = subnetBits;
  const masked = groups.map((group) => {
    const bits = Math.max(0, Math.min(16, remaining));
    remaining -= 16;
    return bits === 0 ? 0 : group & (0xffff << (16 - bits)) & 0xffff;
  });
  return `${masked.map((group) => group.toString(16)).join('.')}/${subnetBits}`;
}
