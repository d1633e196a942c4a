// The strings family's command specs (filled in by the engine work on this family).
import type { CommandSpec } from '../command-table';

export const stringsCommands: readonly CommandSpec[] = [];
