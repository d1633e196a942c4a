// The bitmaps family's command specs (filled in by the engine work on this family).
import type { CommandSpec } from '../command-table';

export const bitmapsCommands: readonly CommandSpec[] = [];
