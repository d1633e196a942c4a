// The memory engine's function libraries as data (FUNCTION LOAD / LIST / DELETE / FLUSH / STATS):
// the `#!lua name=<lib>` header read as Redis 7.0 reads it, the naming rules, the registry of
// libraries and of the functions they registered, and the bounds that keep a caller from filling
// the engine with code. The Lua side (running a library's code to register, calling a function)
// lives in function-environment.ts and script-runner.ts. Error texts are Redis 7.0's.
import { array, bulk, integer, NIL, type Reply } from '../../reply';
import { compileGlob } from '../glob';

/** Flags a function may carry: Redis 7.0's, and `allow-key-locking`, which hosted Upstash adds and changes nothing here. */
export const FUNCTION_FLAGS: ReadonlySet<string> = new Set(['no-writes', 'allow-oom', 'allow-stale', 'no-cluster', 'allow-cross-slot-keys', 'allow-key-locking']);

/** Bounds of the registry: a request may be as large as the server admits, the engine's code stays small. */
export const LIBRARY_LIMITS = { maxLibraries: 256, maxCodeBytes: 1024 * 1024, maxFunctions: 1024 } as const;

export interface FunctionInfo {
  readonly name: string;
  readonly description: string | undefined;
  readonly flags: readonly string[];
}

export interface Library {
  readonly name: string;
  /** The payload as loaded, header included (FUNCTION LIST WITHCODE). */
  readonly code: string;
  /** What Lua compiles: the payload from the header's line break on, so line numbers stay right. */
  readonly body: string;
  /** By name as registered: a library may register `f` and `F`, which FCALL then finds as one. */
  readonly functions: ReadonlyMap<string, FunctionInfo>;
}

const NAME_RULE = /^[A-Za-z0-9_]+$/;
const NAME_ERROR = 'ERR Library names can only contain letters, numbers, or underscores(_) and must be at least one character long';

/**
 * The error for a library or function name Redis 7.0 refuses, or undefined. Redis words both with
 * "Library names", function names included.
 */
export const nameError = (name: string): string | undefined => (NAME_RULE.test(name) ? undefined : NAME_ERROR);

const SPACE = /[ \t\r\n\v\f]/;
const ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', b: '\b', a: '\x07' };

/**
 * A header line split into words as Redis splits it (sdssplitargs): blanks separate words, and a
 * word may hold "double-quoted" parts (with \n, \xHH ... escapes) or 'single-quoted' ones; a quote
 * left open, or closed against the next character, makes the line unreadable (undefined).
 */
function splitWords(line: string): string[] | undefined {
  const words: string[] = [];
  let index = 0;
  while (index < line.length) {
    if (SPACE.test(line[index])) {
      index++;
      continue;
    }
    let word = '';
    let quote: string | undefined;
    for (; index < line.length; index++) {
      const char = line[index];
      if (quote === undefined) {
        if (SPACE.test(char)) break;
        if (char === '"' || char === "'") quote = char;
        else word += char;
      } else if (char === quote) {
        if (index + 1 < line.length && !SPACE.test(line[index + 1])) return undefined;
        quote = undefined;
      } else if (char === '\\' && index + 1 < line.length && (quote === '"' || line[index + 1] === "'")) {
        const next = line[++index];
        const hex = quote === '"' && next === 'x' ? /^[0-9a-fA-F]{2}$/.exec(line.slice(index + 1, index + 3)) : null;
        if (hex) {
          word += String.fromCharCode(parseInt(hex[0], 16));
          index += 2;
        } else word += quote === '"' ? (ESCAPES[next] ?? next) : next;
      } else word += char;
    }
    if (quote !== undefined) return undefined;
    words.push(word);
  }
  return words;
}

/** The header of a payload: its library name and the body Lua compiles, or Redis's error. */
export function parseLibrary(code: string): { readonly name: string; readonly body: string } | { readonly error: string } {
  if (!code.startsWith('#!')) return { error: 'ERR Missing library metadata' };
  const lineEnd = code.indexOf('\n');
  if (lineEnd < 0) return { error: 'ERR Invalid library metadata' };
  const [first, ...options] = splitWords(code.slice(0, lineEnd)) ?? [];
  if (first === undefined) return { error: 'ERR Invalid library metadata' };
  const engine = first.slice(2);
  let name: string | undefined;
  for (const option of options) {
    if (option.slice(0, 5).toLowerCase() !== 'name=') return { error: `ERR Invalid metadata value given: ${option}` };
    if (name !== undefined) return { error: 'ERR Invalid metadata value, name argument was given multiple times' };
    name = option.slice(5);
  }
  if (name === undefined) return { error: 'ERR Library name was not given' };
  if (engine.toLowerCase() !== 'lua') return { error: `ERR Engine '${engine}' not found` };
  const refused = nameError(name);
  return refused === undefined ? { name, body: code.slice(lineEnd) } : { error: refused };
}

export class FunctionLibraries {
  private readonly libraries = new Map<string, Library>();
  /**
   * The function FCALL finds for a name, by lower-case name (Redis compares them so): its library,
   * and its name as registered (of `f` and `F` in one library, the one registered last).
   */
  private readonly owners = new Map<string, { readonly library: string; readonly name: string }>();
  private functionCount = 0;
  private codeBytes = 0;

  library(name: string): Library | undefined {
    return this.libraries.get(name);
  }

  all(): IterableIterator<Library> {
    return this.libraries.values();
  }

  /** The library that registered `functionName`, with the function's description. */
  find(functionName: string): { readonly library: Library; readonly info: FunctionInfo } | undefined {
    const owner = this.owners.get(functionName.toLowerCase());
    const library = owner === undefined ? undefined : this.libraries.get(owner.library);
    const info = owner === undefined ? undefined : library?.functions.get(owner.name);
    return library && info ? { library, info } : undefined;
  }

  /** Why `library` may not be added (replacing `replaced`, if any): a name clash or a bound; undefined when it may. */
  refusal(library: Library, replacing: boolean): string | undefined {
    const replaced = replacing ? this.libraries.get(library.name) : undefined;
    for (const { name } of library.functions.values()) {
      const owner = this.owners.get(name.toLowerCase());
      if (owner !== undefined && owner.library !== replaced?.name) return `ERR Function ${name} already exists`;
    }
    const libraries = this.libraries.size + (replaced ? 0 : 1);
    const functions = this.functionCount - (replaced?.functions.size ?? 0) + library.functions.size;
    const bytes = this.codeBytes - (replaced?.code.length ?? 0) + library.code.length;
    if (libraries > LIBRARY_LIMITS.maxLibraries) return `ERR the memory engine holds at most ${LIBRARY_LIMITS.maxLibraries} function libraries`;
    if (functions > LIBRARY_LIMITS.maxFunctions) return `ERR the memory engine holds at most ${LIBRARY_LIMITS.maxFunctions} functions`;
    if (bytes > LIBRARY_LIMITS.maxCodeBytes) return `ERR the memory engine holds at most ${LIBRARY_LIMITS.maxCodeBytes} bytes of function code`;
    return undefined;
  }

  /** Adds `library`, replacing the one of the same name; refusal() has said it may. */
  add(library: Library): void {
    this.delete(library.name);
    this.libraries.set(library.name, library);
    for (const name of library.functions.keys()) this.owners.set(name.toLowerCase(), { library: library.name, name });
    this.functionCount += library.functions.size;
    this.codeBytes += library.code.length;
  }

  delete(name: string): Library | undefined {
    const library = this.libraries.get(name);
    if (!library) return undefined;
    this.libraries.delete(name);
    for (const functionName of library.functions.keys()) this.owners.delete(functionName.toLowerCase());
    this.functionCount -= library.functions.size;
    this.codeBytes -= library.code.length;
    return library;
  }

  clear(): void {
    this.libraries.clear();
    this.owners.clear();
    this.functionCount = 0;
    this.codeBytes = 0;
  }

  /** FUNCTION STATS, as Redis 7.0 answers it in RESP2 (never a script running here: the engine runs one command at a time). */
  stats(): Reply {
    return array([
      bulk('running_script'),
      NIL,
      bulk('engines'),
      array([bulk('LUA'), array([bulk('libraries_count'), integer(this.libraries.size), bulk('functions_count'), integer(this.functionCount)])]),
    ]);
  }

  /** FUNCTION LIST's reply for libraries whose name matches `pattern` (case-insensitive glob, as Redis matches). */
  list(pattern: string | undefined, withCode: boolean): Reply {
    const glob = pattern === undefined ? undefined : compileGlob(pattern.toLowerCase());
    const entries: Reply[] = [];
    for (const library of this.libraries.values()) {
      if (glob && !glob.matches(library.name.toLowerCase())) continue;
      const functions = [...library.functions.values()].map((info) =>
        array([bulk('name'), bulk(info.name), bulk('description'), info.description === undefined ? NIL : bulk(info.description), bulk('flags'), array(info.flags.map(bulk))]),
      );
      const fields = [bulk('library_name'), bulk(library.name), bulk('engine'), bulk('LUA'), bulk('functions'), array(functions)];
      entries.push(array(withCode ? [...fields, bulk('library_code'), bulk(library.code)] : fields));
    }
    return array(entries);
  }
}
