// The memory engine's FUNCTION subcommands (LOAD [REPLACE], LIST, DELETE, FLUSH, STATS, KILL) and
// FCALL / FCALL_RO, with Redis 7.0's argument handling and error texts, FCALL_RO as Upstash answers
// it. Libraries live as long as the engine: FLUSHALL and FLUSHDB leave them, as in Redis; FUNCTION
// FLUSH and DELETE remove them.
// FUNCTION DUMP and RESTORE are not served: their payload is Redis's RDB encoding.
import { unknownSubcommandOrArityText } from '../../command-table';
import { bulk, error, OK, type Reply } from '../../reply';
import { parseInteger, isErrorReply } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import { FunctionLibraries, LIBRARY_LIMITS, parseLibrary, type Library } from './function-libraries';
import type { ScriptRunner } from './script-runner';

/** FUNCTION LOAD [REPLACE] <code>: the library's name, or Redis's error. */
function load(libraries: FunctionLibraries, runner: ScriptRunner, args: readonly string[]): Reply {
  let replace = false;
  for (const option of args.slice(2, -1)) {
    if (option.toLowerCase() !== 'replace') return error(`ERR Unknown option given: ${option}`);
    replace = true;
  }
  const code = args[args.length - 1];
  if (code.length > LIBRARY_LIMITS.maxCodeBytes) return error(`ERR the memory engine holds at most ${LIBRARY_LIMITS.maxCodeBytes} bytes of function code`);
  const parsed = parseLibrary(code);
  if ('error' in parsed) return error(parsed.error);
  if (!replace && libraries.library(parsed.name)) return error(`ERR Library '${parsed.name}' already exists`);
  const registered = runner.registerLibrary(parsed.body);
  if ('error' in registered) return error(registered.error);
  const library: Library = {
    name: parsed.name,
    code,
    body: parsed.body,
    functions: new Map(registered.functions.map(({ name, description, flags }) => [name, { name, description, flags }])),
  };
  const refused = libraries.refusal(library, replace);
  if (refused !== undefined) return error(refused);
  runner.forgetLibrary(library.name);
  libraries.add(library);
  return bulk(library.name);
}

/** FUNCTION LIST [LIBRARYNAME <pattern>] [WITHCODE], each option at most once. */
function list(libraries: FunctionLibraries, args: readonly string[]): Reply {
  let withCode = false;
  let pattern: string | undefined;
  for (let index = 2; index < args.length; index++) {
    const option = args[index].toLowerCase();
    if (!withCode && option === 'withcode') {
      withCode = true;
    } else if (pattern === undefined && option === 'libraryname') {
      if (index >= args.length - 1) return error('ERR library name argument was not given');
      pattern = args[++index];
    } else {
      return error(`ERR Unknown argument ${args[index]}`);
    }
  }
  return libraries.list(pattern, withCode);
}

export function createFunctionHandlers(runner: ScriptRunner): CommandHandlers {
  const libraries = new FunctionLibraries();

  const deleteLibrary = (args: readonly string[]): Reply => {
    const deleted = libraries.delete(args[2]);
    if (!deleted) return error('ERR Library not found');
    runner.forgetLibrary(deleted.name);
    return OK;
  };

  const flush = (args: readonly string[]): Reply => {
    if (args.length > 3) return error(unknownSubcommandOrArityText(args[1], 'function'));
    if (args.length === 3 && !/^(async|sync)$/i.test(args[2])) return error('ERR FUNCTION FLUSH only supports SYNC|ASYNC option');
    for (const library of libraries.all()) runner.forgetLibrary(library.name);
    libraries.clear();
    return OK;
  };

  const call = (readOnly: boolean) => (args: readonly string[], ctx: CommandContext): Reply => {
    const found = libraries.find(args[1]);
    if (!found) return error('ERR Function not found');
    const count = parseInteger(args[2]);
    if (isErrorReply(count)) return error('ERR Bad number of keys provided');
    if (count > args.length - 3) return error("ERR Number of keys can't be greater than number of args");
    if (count < 0) return error("ERR Number of keys can't be negative");
    // Upstash's FCALL_RO runs a function not declared `no-writes` too, refusing its writes as they
    // come, where Redis refuses the call (`ERR Can not execute a script with write flag using *_ro
    // command.`); the official @upstash/redis suite expects Upstash's answer ("FCALL_RO allows a
    // function that only reads even if it is not declared no-writes (Upstash behavior)").
    const noWrites = found.info.flags.includes('no-writes');
    const keys = args.slice(3, 3 + count);
    return runner.callFunction(found.library, found.info.name, { keys, args: args.slice(3 + count), readOnly: readOnly || noWrites, ctx });
  };

  return {
    'function|load': (args) => load(libraries, runner, args),
    'function|list': (args) => list(libraries, args),
    'function|delete': deleteLibrary,
    'function|flush': flush,
    'function|stats': () => libraries.stats(),
    // Commands run one at a time here, so no function is ever running when KILL arrives.
    'function|kill': () => error('NOTBUSY No scripts in execution right now.'),
    fcall: call(false),
    fcall_ro: call(true),
  };
}
