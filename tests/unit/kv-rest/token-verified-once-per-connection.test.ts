// A keep-alive connection's token is looked up once: the requests after it with the same token reuse
// the principal, a different token on the same connection is looked up afresh, and a wrong one is
// never remembered. The client address is worked out once per connection too.
import { ConnectionMemo } from '../../../mock/kv-rest/http/connection-memo';
import { TokenRegistry } from '../../../mock/kv-rest/http/tokens';

function setUp() {
  const tokens = new TokenRegistry('standard-token', 'read-only-token');
  const find = jest.spyOn(tokens, 'find');
  return { memo: new ConnectionMemo(tokens), find };
}

describe('ConnectionMemo', () => {
  it('looks a token up once per connection', () => {
    const { memo, find } = setUp();
    const connection = { remoteAddress: '127.0.0.1', remotePort: 5000 };
    expect(memo.principal(connection, 'standard-token')).toEqual({ user: 'default', readOnly: false });
    expect(memo.principal(connection, 'standard-token')).toEqual({ user: 'default', readOnly: false });
    expect(find).toHaveBeenCalledTimes(1);
    expect(memo.principal({ remoteAddress: '127.0.0.1', remotePort: 5001 }, 'standard-token')).toBeDefined();
    expect(find).toHaveBeenCalledTimes(2);
  });

  it('looks up a different token on the same connection afresh', () => {
    const { memo } = setUp();
    const connection = {};
    expect(memo.principal(connection, 'standard-token')?.readOnly).toBe(false);
    expect(memo.principal(connection, 'read-only-token')?.readOnly).toBe(true);
    expect(memo.principal(connection, 'standard-token')?.readOnly).toBe(false);
  });

  it('never remembers a wrong or missing token', () => {
    const { memo, find } = setUp();
    const connection = {};
    expect(memo.principal(connection, 'guess')).toBeUndefined();
    expect(memo.principal(connection, 'guess')).toBeUndefined();
    expect(memo.principal(connection, undefined)).toBeUndefined();
    expect(find).toHaveBeenCalledTimes(2);
  });

  it('answers the client address without the IPv4-mapped prefix', () => {
    const { memo } = setUp();
    expect(memo.address({ remoteAddress: '::ffff:10.0.0.7', remotePort: 41234 })).toBe('10.0.0.7:41234');
    expect(memo.address({ remoteAddress: '::1', remotePort: 80 })).toBe('::1:80');
  });
});
