// The deny list's Lua script, in the one place both of its users import it from: the plugin, which
// sends it when a request's member is in the list's set (server/src/deny/deny-check.ts), and the memory engine, which
// recognises it by this SHA and runs a TypeScript twin instead of interpreting it
// (mock/kv-rest/memory/scripting/native-scripts/plugin-deny-check.ts). server/ and mock/ never import
// each other, so the text lives beside both. Changing one character changes the SHA: the engine then
// runs the new text on Lua until its twin is changed to match (a test proves the two agree).
import { createHash } from 'node:crypto';

/**
 * KEYS: all, until; ARGV: now (ms), then the members. Per member: 0 when not denied, -1 when
 * denied with no expiry, else its expiry (ms epoch). An expired entry answers 0 and stays: `now` is
 * the calling instance's clock, and one instance whose clock ran ahead removed timed entries for
 * every instance (issue 34 finding 4). The admin side removes them (deny-store.ts `sweepExpired`),
 * once both its clock and the store's say they have passed.
 */
export const DENY_CHECK_SCRIPT = `local now = tonumber(ARGV[1])
local found = {}
for i = 2, #ARGV do
  local hit = 0
  if redis.call('SISMEMBER', KEYS[1], ARGV[i]) == 1 then
    local expiry = redis.call('ZSCORE', KEYS[2], ARGV[i])
    if not expiry then
      hit = -1
    elseif tonumber(expiry) > now then
      hit = tonumber(expiry)
    end
  end
  found[i - 1] = hit
end
return found`;

/** What EVALSHA names it by: the SHA-1 of the text, as Redis computes it on SCRIPT LOAD. */
export const DENY_CHECK_SHA = createHash('sha1').update(DENY_CHECK_SCRIPT).digest('hex');
