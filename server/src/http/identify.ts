// Who a request comes from, per strategy: `ip` is ctx.request.ip (which honours Strapi's and Koa's
// proxy settings), `header.<NAME>` is that header's value (case-insensitive name); a request
// without the header is limited by its IP instead, marked `ip=` so it never shares a header value's limit.
import type { Context } from 'koa';
import { ipIdentifier, normaliseIdentifier } from './normalise-identifier';

export interface Identity {
  /** Safe inside store keys (see normalise-identifier.ts). */
  readonly id: string;
  /** The value as the caller sent it, for the allow-list. */
  readonly raw: string;
}

export type IdentifierExtractor = (ctx: Context) => Identity;

export function compileIdentifier(source: string, ipv6Subnet: number): IdentifierExtractor {
  const byIp = (ctx: Context): Identity => ({ id: ipIdentifier(ctx.request.ip, ipv6Subnet), raw: ctx.request.ip });
  if (source === 'ip') return byIp;
  const header = source.slice('header.'.length).toLowerCase();
  return (ctx) => {
    const value = ctx.request.headers[header];
    const text = Array.isArray(value) ? value[0] : value;
    if (!text) {
      const fallback = byIp(ctx);
      return { id: `ip=${fallback.id}`, raw: fallback.raw };
    }
    return { id: normaliseIdentifier(text), raw: text };
  };
}
