// Scripts as Redis runs them for the redis engine: every script text is wrapped so that no error
// value a script raises can reach Redis's own error reporting unchecked. Redis 7.0 (Debian's
// 7.0.15 included) dereferences a NULL and dies when a script's error is a table whose `err` field
// is not a string: `error({})`, `error({1})`, `error({err={}})`, raised directly, through `assert`,
// a metamethod or a library call. No text check can find every way to raise one, so the wrapper
// runs the script in a protected call and re-raises what it caught as a plain `{err = <string>}`.
//
// The script's own text is compiled at run time by `loadstring` from a long-bracket string literal
// whose level does not occur in the text, so no text can close the wrapper and run outside it. Its
// chunk is named `@user_script`, as Redis names scripts, so error texts keep their `user_script:N:`
// positions. The wrapper's re-raise would make Redis report its own line and SHA; the true line
// travels in a marker that restoreScriptError() turns back into Redis's text with the client's SHA.
import { parseShebang } from '../../../shared/script-shebang';

/** Separates the caught error's text from the line it was raised on; never sent to clients. */
const LINE_MARK = '\u0001line=';
const NOT_A_STRING_ERROR = 'ERR the script raised an error value that is not a string';

/**
 * Lua run by Redis around the script's text (one line, so the wrapper adds no line to the text).
 * The error handler Redis itself installs for scripts (`__redis__err__handler`, looked up without
 * touching the read-only globals' guard) records the line an error was raised on; servers without
 * it get errors without a line.
 */
const WRAPPER =
  "local function run(text) " +
  "local f, e = loadstring(text, '@user_script') " +
  "if not f then return redis.error_reply('ERR Error compiling script (new function): ' .. e) end " +
  "local ok, r = xpcall(f, rawget(_G, '__redis__err__handler') or function(x) return x end) " +
  'if ok then return r end ' +
  'local line = 0 ' +
  "if type(r) == 'table' then " +
  "local l = rawget(r, 'line') if type(l) == 'number' then line = l end " +
  "r = rawget(r, 'err') " +
  `if type(r) ~= 'string' and type(r) ~= 'number' then r = '${NOT_A_STRING_ERROR}' end ` +
  "elseif type(r) == 'string' or type(r) == 'number' or type(r) == 'nil' or type(r) == 'boolean' then r = 'ERR ' .. tostring(r) " +
  `else r = '${NOT_A_STRING_ERROR}' end ` +
  `return error({err = r .. '${LINE_MARK}' .. line}) ` +
  'end return run(';

/**
 * `text` as a Lua long-bracket string literal that reads back as `text`: its level `n` is the
 * lowest such that `]` + n `=` + `]` occurs neither in the text nor across its end (a text ending
 * in `]=` would otherwise close a level-1 literal early). Found in one pass over the text.
 */
export function longStringLiteral(text: string): string {
  const scanned = `${text}]`;
  let highest = -1;
  for (let index = scanned.indexOf(']'); index >= 0; index = scanned.indexOf(']', index + 1)) {
    let equals = 0;
    while (scanned.charCodeAt(index + 1 + equals) === 61 /* = */) equals++;
    if (scanned.charCodeAt(index + 1 + equals) === 93 /* ] */ && equals > highest) highest = equals;
  }
  const level = '='.repeat(highest + 1);
  // A long string drops a newline right after its opening bracket: the one written here.
  return `[${level}[\n${text}]${level}]`;
}

/** The text Redis runs for `text`: its shebang line (Redis reads the flags there), then the wrapper. */
export function guardScript(text: string): string {
  const parsed = parseShebang(text);
  // A shebang Redis refuses is sent unchanged, so the client gets Redis's own refusal.
  if (!parsed.ok) return text;
  const { body, hasShebang } = parsed.script;
  // With a shebang, `body` starts with the newline that ended it: the script's lines keep their numbers.
  const shebangLine = hasShebang ? `${text.slice(0, text.length - body.length)}\n` : '';
  return `${shebangLine}${WRAPPER}${longStringLiteral(body)})`;
}

/** What follows the line marker in Redis's text of a guarded script's error. */
const REDIS_ERROR_TAIL = /^(\d+) script: [0-9a-f]{40}, on @user_script:\d+\.$/;

/** Redis's error text for a guarded script, as the unwrapped script would have made it. */
export function restoreScriptError(message: string, clientSha: string): string {
  const mark = message.lastIndexOf(LINE_MARK);
  if (mark < 0) return message;
  const tail = REDIS_ERROR_TAIL.exec(message.slice(mark + LINE_MARK.length));
  if (!tail) return message.slice(0, mark);
  return `${message.slice(0, mark)} script: ${clientSha}, on @user_script:${tail[1]}.`;
}
