// The boot-time check of Strapi's proxy settings. With `server.proxy.koa: true` and no
// `maxIpsCount`, Koa takes the client IP from the left-most X-Forwarded-For entry, which the client
// writes itself: every request can claim a new address and escape IP limits. The plugin cannot fix
// the setting for the app, so it says once at boot how to.
interface ConfigReader {
  get(path: string, fallback?: unknown): unknown;
}

/** The warning to log, or undefined when the proxy settings let no client choose its own IP. */
export function permissiveProxyWarning(config: ConfigReader): string | undefined {
  if (config.get('server.proxy.koa') !== true) return undefined;
  const maxIpsCount = config.get('server.proxy.maxIpsCount');
  if (typeof maxIpsCount === 'number' && Number.isInteger(maxIpsCount) && maxIpsCount > 0) return undefined;
  const header = config.get('server.proxy.ipHeader') ?? 'X-Forwarded-For';
  return (
    `[ratelimit] config/server: proxy.koa is true without proxy.maxIpsCount, so the client IP is the left-most ${String(header)} entry, ` +
    'which clients write themselves: a caller limited by IP can claim a new address with every request. ' +
    'Set proxy: { koa: true, maxIpsCount: <the number of proxies in front of Strapi> } (1 behind one load balancer).'
  );
}
