// An unknown subcommand is echoed in the error as Redis 7.0.15 echoes it: its first 128 characters
// (Redis formats it with `%.128s`; checked with redis-cli). The REST API echoed the whole argument,
// however long, so the error grew with the request.
import { lookupCommand } from '../../../mock/kv-rest/command-table';

describe('the error for an unknown subcommand', () => {
  it('shows the first 128 characters of the subcommand, as Redis does', () => {
    const long = 'x'.repeat(200);
    expect(lookupCommand(['ACL', long])).toEqual({ ok: false, failure: 'unknown', error: `ERR unknown subcommand '${'x'.repeat(128)}'. Try ACL HELP.` });
    expect(lookupCommand(['object', long, 'a', 'b'])).toEqual({ ok: false, failure: 'unknown', error: `ERR unknown subcommand '${'x'.repeat(128)}'. Try OBJECT HELP.` });
  });

  it('shows a short subcommand whole, in the case it was sent', () => {
    expect(lookupCommand(['xgroup', 'Bogus'])).toEqual({ ok: false, failure: 'unknown', error: "ERR unknown subcommand 'Bogus'. Try XGROUP HELP." });
  });
});
