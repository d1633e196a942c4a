// The scripts the memory engine runs natively, by the SHA-1 of their text as clients send it: every
// Lua script of @upstash/ratelimit 2.2.0 (the version this package pins), the plugin's own deny
// check (shared/deny-check-script.ts), sent when a caller's member is in the deny list's set, and the
// plugin's scripts for requests charged more than 1 token (shared/charge-scripts.ts). These make the same
// calls in TypeScript: measured in the engine alone, a sliding-window EVALSHA takes about 1 µs
// instead of 26 µs on fengari (a GET: 0.2 µs); over HTTP the server spends about 20 µs of CPU on it
// (a GET: 14.5 µs, most of both being Node's HTTP) instead of 45. Any other text, another version's
// included, runs on Lua.
//
// The limiter scripts have two texts: as sent (`#!lua flags=allow-key-locking`) and with the flag
// Redis 7.0 does not know removed, which is what the redis engine sends (see scriptForRedis70): both
// have the same body, so the same lines. The reset, deny-list and the plugin's scripts have no shebang. A test
// captures the texts from the library and proves these SHAs.
import { DENY_CHECK_SHA } from '../../../../../shared/deny-check-script';
import { FIXED_WINDOW_CHARGE, SLIDING_WINDOW_CHARGE, TOKEN_BUCKET_CHARGE } from '../../../../../shared/charge-scripts';
import { checkDenyList } from './deny-list';
import { cachedFixedWindowLimit, cachedFixedWindowRemaining, fixedWindowLimit, fixedWindowRemaining } from './fixed-window';
import { multiRegionFixedWindowLimit, multiRegionFixedWindowRemaining, multiRegionSlidingWindowLimit, multiRegionSlidingWindowRemaining } from './multi-region';
import type { NativeScript } from './native-run';
import { checkPluginDenyList } from './plugin-deny-check';
import { resetUsedTokens } from './reset-used-tokens';
import { slidingWindowLimit, slidingWindowRemaining } from './sliding-window';
import { tokenBucketLimit, tokenBucketRemaining } from './token-bucket';
import { fixedWindowCharge, slidingWindowCharge, tokenBucketCharge } from './charges';

export { NativeRun, RUN_ON_LUA, type NativeScript } from './native-run';

/** [script, SHA as sent, SHA with the shebang's flag removed (for texts that have one)]. */
const PINNED_SCRIPTS: readonly (readonly [NativeScript, ...string[]])[] = [
  [fixedWindowLimit, 'b2efc02798c8e9b471a10f9b1d5745db89923ff3', '5a59d9254166567a53d2e692ee461dfe26382b9d'],
  [fixedWindowRemaining, '823cb2a5a902d69681244f5e28e5ebb8f2a89edd', '66e38c2a38474d36bfb48f457450466467f49f72'],
  [slidingWindowLimit, '74740bb3d7792848093cdef586b6b6037c455fd6', 'e6dcdd5b33dc90919840930a53bffa7878992887'],
  [slidingWindowRemaining, '7ca36169e0fc9caedd81b4eef8e99854c157f9b5', '6819c818928a1db9321d0cf582909f5b44f10f78'],
  [tokenBucketLimit, 'd60be5bd3d83482ae229309f1f7425424f891204', 'b4727fa590938700c2865009589fb88341ae413d'],
  [tokenBucketRemaining, '40daf4a441df736f5c99f8b77bbe176c909e5de4', '97b783171813346ae795d60824000febdfc64783'],
  [cachedFixedWindowLimit, '1861a700bafe96c833a483af6b1c28a8897cfdb0', '28e1a327fdc0e1c74a804d58aa6f0587584c792e'],
  [cachedFixedWindowRemaining, 'eb82f0e853d2fc9a236fa9bfbe704fda6ac2fc36', '66d59517709ea3be3f39e3f68f70fe923cc9791d'],
  [multiRegionFixedWindowLimit, 'e04b753a75909b7f99aae4c04cf8869a8de02a9e', '1948422f08b49882cbca8a9e7fdd1450332266b8'],
  [multiRegionFixedWindowRemaining, 'e066c8ce3eaca142b0894ad1541e0a58c9924819', '873f2db6804bf7b1d3ebe0b66dfa37b330e2613e'],
  [multiRegionSlidingWindowLimit, 'aeb4d8f381e8dafc8e69041baae1324d254ded44', 'e4342b31f3730d8516088c1da8a5dd90923c6be1'],
  [multiRegionSlidingWindowRemaining, '87828c1088f6a8d1f512a434ea330189982a1c0a', 'a9e89c281ac76719570645727b151159becf6c04'],
  [resetUsedTokens, '54bd274ddc59fb3be0f42deee2f64322a10e2b50'],
  [checkDenyList, 'e8062088fe7e67994f617766e5d766490de1afb8'],
  // The plugin's own scripts, by the SHA of the one text the plugin sends for each.
  [checkPluginDenyList, DENY_CHECK_SHA],
  [fixedWindowCharge, FIXED_WINDOW_CHARGE.sha],
  [slidingWindowCharge, SLIDING_WINDOW_CHARGE.sha],
  [tokenBucketCharge, TOKEN_BUCKET_CHARGE.sha],
];

export const NATIVE_SCRIPTS: ReadonlyMap<string, NativeScript> = new Map(
  PINNED_SCRIPTS.flatMap(([script, ...shas]) => shas.map((sha) => [sha, script] as const)),
);
