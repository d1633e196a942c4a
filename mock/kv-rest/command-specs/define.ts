// Small constructors for command specs, so each family file reads like Redis's command table.
import type { CommandFlag, CommandSpec } from '../command-table';

export type KeySpec = readonly [firstKey: number, lastKey: number, keyStep: number];
export const NO_KEYS: KeySpec = [0, 0, 0];
export const FIRST_KEY: KeySpec = [1, 1, 1];
export const ALL_KEYS: KeySpec = [1, -1, 1];

export function command(name: string, arity: number, flags: readonly CommandFlag[], keys: KeySpec = NO_KEYS, extra: Partial<CommandSpec> = {}): CommandSpec {
  return { name, arity, flags, firstKey: keys[0], lastKey: keys[1], keyStep: keys[2], ...extra };
}

/** A container command (SCRIPT, ACL, OBJECT ...) whose subcommands are named `container|sub`. */
export function container(name: string, arity: number, subcommands: readonly CommandSpec[]): CommandSpec {
  const byName = new Map(subcommands.map((sub) => [sub.name.slice(name.length + 1), sub]));
  return command(name, arity, [], NO_KEYS, { subcommands: byName });
}
