// Finding 1 of the attack review: scripts shared one Lua state whose globals and library tables they
// could change, so a Read Only caller could redefine redis.call for every later caller. Each script
// must see a fresh, read-only view: every write to a global or a library table is refused with
// Redis's text and nothing a script does is visible to the next one.
import fc from 'fast-check';
import { useEngine } from './memory-engine-harness';
import { ESCAPE_ATTEMPTS } from './script-escape-attempts';


/** Everything a script can reach by name, as `path=type:identity` lines, so any change shows. */
const FINGERPRINT = `
local lines = {}
local function describe(path, value) lines[#lines + 1] = path .. '=' .. type(value) .. ':' .. tostring(value) end
-- KEYS and ARGV are new tables on every run.
local fresh = { KEYS = true, ARGV = true }
local function walk(path, t)
  for name, value in pairs(t) do
    if fresh[name] then lines[#lines + 1] = path .. '.' .. name .. '=' .. type(value) else describe(path .. '.' .. tostring(name), value) end
  end
end
walk('_G', _G)
for _, name in ipairs({'redis', 'string', 'table', 'math', 'cjson'}) do walk(name, _G[name]) end
walk('getmetatable(_G)', getmetatable(_G))
walk("getmetatable('')", getmetatable(''))
describe('string metatable __index is string', rawequal(getmetatable('').__index, string))
table.sort(lines)
return lines`;

describe('each script runs against a fresh, read-only view of the sandbox', () => {
  const subject = useEngine();
  const run = (...args: (string | number)[]) => subject().run(...args);

  it('finding 1: a read-only script that redefines redis.call cannot make a later script write', async () => {
    const redefine = ESCAPE_ATTEMPTS[0];
    expect(await run('EVAL_RO', redefine, '0')).toEqual({ error: expect.stringMatching(/^ERR user_script:1: Attempt to modify a readonly table script: [0-9a-f]{40}, on @user_script:1\.$/) });
    expect(await run('EVAL', "return redis.call('SET', 'k', 'v')", '0')).toBe('OK');
    expect(await run('EXISTS', 'pwned')).toBe(0);
  });

  it('finding 1: every write to a global, a library table or a metatable is refused with Redis\'s text', async () => {
    for (const attempt of ESCAPE_ATTEMPTS) {
      const reply = await run('EVAL', attempt, '0');
      expect({ attempt, reply }).toEqual({ attempt, reply: { error: expect.stringMatching(/^ERR (user_script:1: )?Attempt to modify a readonly table script: [0-9a-f]{40}, on @user_script:1\.$/) } });
    }
  });

  it('finding 1: no sequence of escape attempts, plain or caught with pcall, changes what the next script sees', async () => {
    const pristine = await run('EVAL', FINGERPRINT, '0');
    expect(Array.isArray(pristine) && pristine.length).toBeGreaterThan(50);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...ESCAPE_ATTEMPTS), fc.boolean()), { minLength: 1, maxLength: 6 }), async (attempts) => {
        for (const [attempt, caught] of attempts) {
          await run(caught ? 'EVAL' : 'EVAL_RO', caught ? `pcall(function() ${attempt} end) return 1` : attempt, '0');
        }
        expect(await run('EVAL', FINGERPRINT, '0')).toEqual(pristine);
        expect(await run('EXISTS', 'pwned')).toBe(0);
      }),
      { numRuns: 60 },
    );
  });

  it('finding 1: a script that replaces its _ENV does not find the replacement on its next run', async () => {
    const script = "if rawget(_ENV, 'marker') then return 'replaced environment survived' end _ENV = {marker = true} return 'fresh'";
    expect(await run('EVAL', script, '0')).toBe('fresh');
    expect(await run('EVAL', script, '0')).toBe('fresh');
  });
});
