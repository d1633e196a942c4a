// Where the store is, parsed once from the plugin config's `url` (and from the key-value server's
// `--redis-url`, whose redis engine takes the redis:// and redis+sentinel:// forms): a key-value REST URL (`https://`,
// `http://`: Upstash or our key-value server), or Redis itself in one of three forms, with the
// credentials in the URL as Redis clients take them (README, "Production on your own Redis"):
//   redis://[user:password@]host[:port][/db]              one node (rediss:// for TLS)
//   redis+sentinel://[user:password@]host[:port],.../<master name>[/db]   a Sentinel-managed primary
//   redis+cluster://[user:password@]host[:port],...       a Redis Cluster, from any of its nodes
// (`rediss+sentinel://`, `rediss+cluster://` for TLS). A Sentinel's own credentials, when it has
// any, go in the query: `?sentinelUsername=...&sentinelPassword=...`; a TLS form takes the file of
// the CA that signed Redis's certificate, when it is a private one, as `?tlsCa=/path/ca.pem` (as
// libpq's `sslrootcert`: the file is read by the transport, server/src/store/tls-trust.ts), and so
// does an https key-value REST url (parseRestUrl). Everything is checked here, so
// a mistake is a config error naming `url` at boot, and the transport (server/src/store/redis/redis-requester.ts)
// receives a typed address. The parse is a few splits at fixed characters: linear in the URL.
// An error quotes no part of the URL that lies before its last `@`: an unencoded `/`, `?` or `#` in
// a password moves the authority's end before its `@`, and the part quoted as a host or a path
// would then be the password (trust round 4, finding 2).

export interface HostAndPort {
  readonly host: string;
  readonly port: number;
}

export type RedisTopology = 'node' | 'sentinel' | 'cluster';

export interface RedisAddress {
  readonly kind: 'redis';
  readonly topology: RedisTopology;
  readonly tls: boolean;
  /** The node (one), the sentinels, or the cluster's seed nodes. */
  readonly hosts: readonly HostAndPort[];
  readonly username?: string;
  readonly password?: string;
  readonly db: number;
  /** Sentinel only: the name the sentinels monitor the primary by. */
  readonly masterName?: string;
  readonly sentinelUsername?: string;
  readonly sentinelPassword?: string;
  /** TLS only: the PEM file of the CA that signed Redis's certificate (and the sentinels'), trusted beside Node's bundled CAs. */
  readonly tlsCaFile?: string;
}

export interface RestAddress {
  readonly kind: 'rest';
  /** The url as written, less its `tlsCa` parameter: the base the REST paths are resolved against. */
  readonly url: string;
  /** https only: the PEM file of the CA that signed the store's certificate, trusted beside Node's bundled CAs. */
  readonly tlsCaFile?: string;
}

export type StoreAddress = RestAddress | RedisAddress;

export type AddressParse = { readonly ok: true; readonly address: StoreAddress } | { readonly ok: false; readonly error: string };

const DEFAULT_PORTS: Record<RedisTopology, number> = { node: 6379, sentinel: 26379, cluster: 6379 };
const SCHEMES: Record<string, { topology: RedisTopology; tls: boolean }> = {
  'redis:': { topology: 'node', tls: false },
  'rediss:': { topology: 'node', tls: true },
  'redis+sentinel:': { topology: 'sentinel', tls: false },
  'rediss+sentinel:': { topology: 'sentinel', tls: true },
  'redis+cluster:': { topology: 'cluster', tls: false },
  'rediss+cluster:': { topology: 'cluster', tls: true },
};
/** The address's fields a query parameter fills. */
type QueryField = 'sentinelUsername' | 'sentinelPassword' | 'tlsCaFile';
/** The query parameters of each form, by the name the address gives them. */
const SENTINEL_QUERY: Record<string, QueryField> = { sentinelUsername: 'sentinelUsername', sentinelPassword: 'sentinelPassword' };
/** The query parameter naming a private CA's file, on every TLS form (rediss and https). */
const TLS_CA_PARAMETER = 'tlsCa';
const TLS_QUERY: Record<string, QueryField> = { [TLS_CA_PARAMETER]: 'tlsCaFile' };
/** Redis's `databases` setting has no fixed upper bound; this only keeps the number an int. */
const MAX_DB = 2 ** 31 - 1;

export const STORE_URL_FORMS =
  'an http(s) key-value REST URL, redis://[user:password@]host[:port][/db] (rediss:// for TLS), redis+sentinel://[user:password@]host:port,host:port/<master name>, or redis+cluster://host:port,host:port';

/** Whether a url (valid or not) names a key-value REST store rather than Redis. */
export const isRestUrl = (url: string): boolean => /^https?:\/\//i.test(url);

const failed = (error: string): AddressParse => ({ ok: false, error });

/** A part of `url` for an error, as `written` (quoted by default), unless it starts before the url's last `@` and so may be a credential. */
type Quote = (part: string, written?: string) => string;

const NOT_SHOWN = '(not shown, it may hold the password: percent-encode /, ?, # and @ in a user or password)';

function quoterFor(url: string): Quote {
  const lastAt = url.lastIndexOf('@');
  return (part, written = JSON.stringify(part)) => (lastAt >= 0 && url.lastIndexOf(part) <= lastAt ? NOT_SHOWN : written);
}

export function parseStoreUrl(url: string): AddressParse {
  const quote = quoterFor(url);
  const schemeEnd = url.indexOf('://');
  const scheme = schemeEnd > 0 ? `${url.slice(0, schemeEnd).toLowerCase()}:` : '';
  if (scheme === 'http:' || scheme === 'https:') {
    return URL.canParse(url) ? parseRestUrl(url, scheme === 'https:') : failed(`must be ${STORE_URL_FORMS}: ${quote(url)} is not a valid URL`);
  }
  const form = SCHEMES[scheme];
  if (form === undefined) return failed(`must be ${STORE_URL_FORMS} (the scheme ${schemeEnd > 0 ? quote(url.slice(0, schemeEnd), JSON.stringify(scheme)) : quote(url)} is none of these)`);
  return parseRedisUrl(url.slice(schemeEnd + 3), form.topology, form.tls, quote);
}

/**
 * A key-value REST url is the store's own, its query included, except `tlsCa`: an https url takes the
 * file of a private CA as the rediss forms do (our key-value server behind a TLS terminator of your
 * own, a gateway inside a company network), read by the plugin and never sent to the store.
 */
function parseRestUrl(url: string, tls: boolean): AddressParse {
  const parsed = new URL(url);
  const files = parsed.searchParams.getAll(TLS_CA_PARAMETER);
  if (files.length === 0) return { ok: true, address: { kind: 'rest', url } };
  if (!tls) return failed(`has ${TLS_CA_PARAMETER}, which only an https url takes (the CA of a TLS certificate)`);
  const tlsCaFile = files[files.length - 1];
  if (tlsCaFile === '') return failed(`has an empty ${TLS_CA_PARAMETER}`);
  parsed.searchParams.delete(TLS_CA_PARAMETER);
  return { ok: true, address: { kind: 'rest', url: parsed.href, tlsCaFile } };
}

function parseRedisUrl(rest: string, topology: RedisTopology, tls: boolean, quote: Quote): AddressParse {
  const [beforeQuery, query = ''] = splitOnce(rest, '?');
  if (beforeQuery.includes('#')) return failed('must not contain a fragment (#)');
  const [authority, path = ''] = splitOnce(beforeQuery, '/');
  const at = authority.lastIndexOf('@');
  const credentials = at < 0 ? undefined : readCredentials(authority.slice(0, at));
  if (credentials !== undefined && 'error' in credentials) return failed(credentials.error);
  const hosts = readHosts(at < 0 ? authority : authority.slice(at + 1), DEFAULT_PORTS[topology], quote);
  if ('error' in hosts) return failed(hosts.error);
  if (topology === 'node' && hosts.list.length > 1) return failed('names several hosts: use redis+sentinel:// or redis+cluster:// for more than one node');
  const segments = path === '' ? [] : path.split('/');
  let masterName: string | undefined;
  if (topology === 'sentinel') {
    masterName = segments.length > 0 ? decode(segments.shift()!) : undefined;
    if (!masterName) return failed('needs the master name the sentinels monitor: redis+sentinel://host:port,host:port/<master name>');
  }
  const db = readDb(segments, topology, quote);
  if (typeof db === 'string') return failed(db);
  const queried = readQuery(query, topology, tls, quote);
  if ('error' in queried) return failed(queried.error);
  return {
    ok: true,
    address: { kind: 'redis', topology, tls, hosts: hosts.list, db, ...credentials, ...(masterName === undefined ? {} : { masterName }), ...queried.values },
  };
}

function splitOnce(text: string, separator: string): [string, string?] {
  const index = text.indexOf(separator);
  return index < 0 ? [text] : [text.slice(0, index), text.slice(index + 1)];
}

/** Percent-decoding that never throws: a malformed escape is kept as written. */
function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function readCredentials(userinfo: string): { username?: string; password?: string } | { error: string } {
  const [user, password] = splitOnce(userinfo, ':');
  if (user === '' && password === undefined) return { error: 'has an empty user and password before @' };
  return { ...(user === '' ? {} : { username: decode(user) }), ...(password === undefined ? {} : { password: decode(password) }) };
}

function readHosts(list: string, defaultPort: number, quote: Quote): { list: HostAndPort[] } | { error: string } {
  if (list === '') return { error: 'names no host' };
  const hosts: HostAndPort[] = [];
  for (const entry of list.split(',')) {
    // The WHATWG parser checks the host (IPv6 in brackets, no stray characters) and the port.
    const parsed = URL.canParse(`redis://${entry}`) ? new URL(`redis://${entry}`) : undefined;
    if (parsed === undefined || parsed.hostname === '' || parsed.username !== '' || parsed.pathname !== '') {
      return { error: `has a host that is not host[:port]: ${quote(entry)}` };
    }
    const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
    hosts.push({ host, port: parsed.port === '' ? defaultPort : Number(parsed.port) });
  }
  return { list: hosts };
}

function readDb(segments: readonly string[], topology: RedisTopology, quote: Quote): number | string {
  if (segments.length === 0 || (segments.length === 1 && segments[0] === '')) return 0;
  if (segments.length > 1 || !/^\d{1,10}$/.test(segments[0]) || Number(segments[0]) > MAX_DB) {
    const path = `/${segments.join('/')}`;
    return `has a path that is not a database number: ${quote(path, path)}`;
  }
  const db = Number(segments[0]);
  if (topology === 'cluster' && db !== 0) return `names database ${db}, but a Redis Cluster has only database 0`;
  return db;
}

function readQuery(query: string, topology: RedisTopology, tls: boolean, quote: Quote): { values: Partial<Record<QueryField, string>> } | { error: string } {
  const values: Partial<Record<QueryField, string>> = {};
  if (query === '') return { values };
  const known = { ...(topology === 'sentinel' ? SENTINEL_QUERY : {}), ...(tls ? TLS_QUERY : {}) };
  for (const [name, value] of new URLSearchParams(query)) {
    const field = Object.hasOwn(known, name) ? known[name] : undefined;
    if (field === undefined) {
      return { error: `has a query parameter ${quote(name)} it does not know (redis+sentinel:// takes sentinelUsername and sentinelPassword, the rediss forms tlsCa)` };
    }
    if (field === 'tlsCaFile' && value === '') return { error: `has an empty ${name}` };
    values[field] = value;
  }
  return { values };
}

/** The address as logs may show it: scheme, hosts, master name and database, no credentials. */
export function describeAddress(address: StoreAddress): string {
  if (address.kind === 'rest') {
    const parsed = new URL(address.url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  }
  const scheme = `${address.tls ? 'rediss' : 'redis'}${address.topology === 'node' ? '' : `+${address.topology}`}`;
  const hosts = address.hosts.map(({ host, port }) => `${host.includes(':') ? `[${host}]` : host}:${port}`).join(',');
  const path = [...(address.masterName === undefined ? [] : [encodeURIComponent(address.masterName)]), ...(address.db === 0 ? [] : [String(address.db)])];
  return `${scheme}://${hosts}${path.length > 0 ? `/${path.join('/')}` : ''}`;
}
