// Metadata of the commands newer than Redis 7.0 (a newer Redis's hash-field expiry, a module's
// JSON.* ...), hand-written in beyond-redis-7.0/*.json in the generated file's form plus the
// release or module each needs. Every .json file of that folder is read, so a family adds its file
// and nothing else; the build copies the folder next to this module (tsconfig.build.json).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { NewerCommandInfo, NewerCommandsFile } from './redis-command-info';

const FOLDER = path.join(__dirname, 'beyond-redis-7.0');

/** A file's commands, or an error naming the file and what is wrong, so a bad edit fails at start. */
function commandsOf(file: string): [string, NewerCommandInfo][] {
  const parsed = JSON.parse(readFileSync(path.join(FOLDER, file), 'utf8')) as Partial<NewerCommandsFile>;
  if (typeof parsed.note !== 'string' || typeof parsed.commands !== 'object' || parsed.commands === null) {
    throw new Error(`${file} in ${FOLDER}: needs a "note" string and a "commands" object`);
  }
  const entries = Object.entries(parsed.commands);
  for (const [name, info] of entries) {
    const complete = typeof info.requires === 'string' && Number.isInteger(info.arity) && Array.isArray(info.flags) && Array.isArray(info.categories) && Array.isArray(info.keySpecs);
    if (!complete || name !== name.toLowerCase()) throw new Error(`${file} in ${FOLDER}: '${name}' needs a lower-case name, requires, arity, flags, categories and keySpecs`);
  }
  return entries;
}

function readNewerCommands(): ReadonlyMap<string, NewerCommandInfo> {
  const files = readdirSync(FOLDER).filter((file) => file.endsWith('.json')).sort();
  const commands = new Map<string, NewerCommandInfo>();
  for (const file of files) {
    for (const [name, info] of commandsOf(file)) {
      if (commands.has(name)) throw new Error(`${file} in ${FOLDER}: '${name}' is described by another file too`);
      commands.set(name, info);
    }
  }
  return commands;
}

export const NEWER_COMMANDS: ReadonlyMap<string, NewerCommandInfo> = readNewerCommands();
