// Who a request comes from, per strategy: `ip` is ctx.request.ip (which honours Strapi's and Koa's
// proxy settings) reduced to the address when a proxy wrote `ip:port` or `[v6]:port`;
// `header.<NAME>` is that header's value (case-insensitive name); a request without the header is
// limited by its IP instead, marked `ip=` so it never shares a header value's limit. `user` is
// limited by IP here: the middleware replaces that with the verified principal when the request
// carries one (verified-caller.ts), so the principal is resolved once per request, not per strategy.
// A header whose values are hashed (header-privacy.ts) has its HMAC as both its id and its value, so
// the raw credential is not kept past this function and the allow-list compares hashes. The IP
// identity is the same for every strategy of a request: extractors receive it from the middleware,
// which computes it at most once per request, when the first strategy needs it.
import type { Context } from 'koa';
import type { HeaderValueHasher } from './header-privacy';
import { clientAddress, ipIdentifier, normaliseIdentifier } from './normalise-identifier';
import { USER_SOURCE, type VerifiedCaller } from './verified-caller';

/** A caller: its key form (`id`, safe inside store keys) and what the allow-list matches it on. */
export type Identity =
  | { readonly source: 'ip'; readonly id: string; readonly address: string }
  | { readonly source: 'header'; readonly id: string; readonly header: string; readonly value: string }
  | { readonly source: 'user'; readonly id: string };

export type IpIdentity = Extract<Identity, { source: 'ip' }>;

/** A request's caller for one strategy; `byIp` gives the request's IP identity (computed once). */
export type IdentifierExtractor = (ctx: Context, byIp: () => IpIdentity) => Identity;

/**
 * The IP identity of a request: its client address, IPv6 grouped by `ipv6Subnet` bits. The last
 * one is kept and given again for the same IP (identities are never changed): a flood, blocked or
 * not, comes from one address, whose parse and normalisation would otherwise be redone per request.
 */
export function compileIpIdentity(ipv6Subnet: number): (ctx: Context) => IpIdentity {
  let last: { readonly ip: string; readonly identity: IpIdentity } | undefined;
  return (ctx) => {
    const ip = ctx.request.ip;
    if (last?.ip === ip) return last.identity;
    const address = clientAddress(ip);
    last = { ip, identity: { source: 'ip', id: ipIdentifier(address, ipv6Subnet), address } };
    return last.identity;
  };
}

const sameIp: IdentifierExtractor = (_ctx, byIp) => byIp();

export function compileIdentifier(source: string, hasherFor: (header: string) => HeaderValueHasher): IdentifierExtractor {
  if (source === 'ip' || source === USER_SOURCE) return sameIp;
  const header = source.slice('header.'.length).toLowerCase();
  const hash = hasherFor(header);
  return (ctx, byIp) => {
    const sent = ctx.request.headers[header];
    const value = Array.isArray(sent) ? sent[0] : sent;
    if (!value) {
      const fallback = byIp();
      return { ...fallback, id: `ip=${fallback.id}` };
    }
    if (hash) {
      const hashed = hash(value);
      return { source: 'header', id: hashed, header, value: hashed };
    }
    return { source: 'header', id: normaliseIdentifier(value), header, value };
  };
}

/** The identity of a verified principal: `user=<id>` or `token=<id>`, apart from every other identity by its prefix (an IP is bare, a header's IP fallback `ip=`, a hashed header `hmac=`, and a raw header value has its `=` escaped). */
export function verifiedIdentity(caller: VerifiedCaller): Identity {
  return { source: 'user', id: `${caller.kind}=${normaliseIdentifier(caller.id)}` };
}
