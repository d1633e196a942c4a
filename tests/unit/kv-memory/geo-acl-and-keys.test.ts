// Geo commands under ACL users: the family's own category (`+@geo`), reads and writes as the command
// table flags them, and GEORADIUS's STORE destination checked against the user's key patterns like
// any key it writes.
import { useEngine } from './memory-engine-harness';
import { executeAsSent } from '../../support/engine-commands';

describe('memory engine: geo commands and ACL users', () => {
  const subject = useEngine();
  const as = (user: string) => async (...args: string[]) =>
    (await executeAsSent(subject().engine, [args], { transaction: false, caller: { user, address: '127.0.0.1:40000' } }))[0];

  beforeEach(async () => {
    await subject().run('GEOADD', 'app:places', '13.361389', '38.115556', 'Palermo');
    await subject().run('ACL', 'SETUSER', 'mapper', 'on', 'nopass', '~app:*', '+@geo');
    await subject().run('ACL', 'SETUSER', 'viewer', 'on', 'nopass', '~*', '+@read');
  });

  it('lets a +@geo user run geo commands on its keys only, STORE destinations included', async () => {
    const mapper = as('mapper');
    expect(await mapper('GEOHASH', 'app:places', 'Palermo')).toEqual({ kind: 'array', items: [{ kind: 'bulk', value: 'sqc8b49rny0' }] });
    expect(await mapper('GEORADIUS', 'app:places', '13', '38', '100', 'km', 'STORE', 'app:near')).toEqual({ kind: 'integer', value: 1 });
    expect(await mapper('GEORADIUS', 'app:places', '13', '38', '100', 'km', 'STORE', 'elsewhere')).toEqual({
      kind: 'error',
      message: 'NOPERM this user has no permissions to access one of the keys used as arguments',
    });
    expect(await mapper('ZCARD', 'app:places')).toEqual({ kind: 'error', message: "NOPERM this user has no permissions to run the 'zcard' command" });
  });

  it('lets a +@read user search but not add or store', async () => {
    const viewer = as('viewer');
    expect(await viewer('GEOSEARCH', 'app:places', 'FROMLONLAT', '13', '38', 'BYRADIUS', '100', 'km')).toEqual({ kind: 'array', items: [{ kind: 'bulk', value: 'Palermo' }] });
    expect(await viewer('GEOADD', 'app:places', '1', '1', 'x')).toEqual({ kind: 'error', message: "NOPERM this user has no permissions to run the 'geoadd' command" });
    expect(await viewer('GEORADIUS', 'app:places', '13', '38', '100', 'km', 'STORE', 'app:near')).toEqual({
      kind: 'error',
      message: "NOPERM this user has no permissions to run the 'georadius' command",
    });
  });
});
