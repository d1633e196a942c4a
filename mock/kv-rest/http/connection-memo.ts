// What the requests of one keep-alive connection share, worked out once per connection: the client
// address, and the last token verified on it, so that the requests after it skip the SHA-256 lookup.
// A token is compared with what the same client sent before, never with a secret: nothing leaks.
import type { Principal, TokenRegistry } from './tokens';

interface Connection {
  readonly remoteAddress?: string;
  readonly remotePort?: number;
}

interface Memo {
  readonly address: string;
  verified?: { readonly token: string; readonly principal: Principal };
}

export class ConnectionMemo {
  private readonly memos = new WeakMap<Connection, Memo>();

  constructor(private readonly tokens: TokenRegistry) {}

  /** `ip:port` of the client, without the `::ffff:` of an IPv4 client on a dual-stack socket. */
  address(connection: Connection): string {
    return this.memoOf(connection).address;
  }

  /** The principal of `token`, or undefined when it is no token of this server. */
  principal(connection: Connection, token: string | undefined): Principal | undefined {
    if (token === undefined) return undefined;
    const memo = this.memoOf(connection);
    if (memo.verified?.token === token) return memo.verified.principal;
    const principal = this.tokens.find(token);
    if (principal) memo.verified = { token, principal };
    return principal;
  }

  private memoOf(connection: Connection): Memo {
    let memo = this.memos.get(connection);
    if (!memo) {
      const address = (connection.remoteAddress ?? '').replace(/^::ffff:/, '');
      memo = { address: `${address}:${connection.remotePort ?? 0}` };
      this.memos.set(connection, memo);
    }
    return memo;
  }
}
