// The shape of the Redis command metadata, as `COMMAND INFO` describes each command and subcommand:
// arity, flags, ACL categories and key specs. generated/redis-7.0-commands.json is generated from a
// Redis 7.0; beyond-redis-7.0/*.json describe newer commands by hand in the same form. The key-value
// server reads key positions and ACL categories from them rather than restating them.

/** Where a key spec starts looking: at a fixed index, or after a keyword searched from `startFrom`. */
export type BeginSearch =
  | { readonly type: 'index'; readonly index: number }
  | { readonly type: 'keyword'; readonly keyword: string; readonly startFrom: number }
  | { readonly type: 'unknown' };

/** How a key spec finds its keys from where it began. */
export type FindKeys =
  | { readonly type: 'range'; readonly lastKey: number; readonly keyStep: number; readonly limit: number }
  | { readonly type: 'keynum'; readonly keyNumIndex: number; readonly firstKey: number; readonly keyStep: number }
  | { readonly type: 'unknown' };

export interface KeySpec {
  /** Redis's key-spec flags, lower-case: `rw`, `ro`, `ow`, `rm`, `access`, `update`, `insert`, `delete`, `incomplete` ... */
  readonly flags: readonly string[];
  readonly beginSearch: BeginSearch;
  readonly findKeys: FindKeys;
}

export interface RedisCommandInfo {
  readonly arity: number;
  /** Command flags, lower-case (`readonly`, `write`, `admin`, `noscript`, `movablekeys` ...). */
  readonly flags: readonly string[];
  /** ACL categories without the `@`. */
  readonly categories: readonly string[];
  readonly keySpecs: readonly KeySpec[];
}

export interface RedisCommandsFile {
  readonly regenerate: string;
  readonly redisVersion: string;
  /** By lower-case name; subcommands as `container|sub`. */
  readonly commands: Readonly<Record<string, RedisCommandInfo>>;
}

/** A command newer than Redis 7.0, with what a server needs to have it (`Redis 7.4`, `the RedisJSON module`). */
export interface NewerCommandInfo extends RedisCommandInfo {
  readonly requires: string;
}

/** A hand-written file of beyond-redis-7.0/: where its facts come from, and its commands. */
export interface NewerCommandsFile {
  readonly note: string;
  /** By lower-case name; subcommands as `container|sub`. */
  readonly commands: Readonly<Record<string, NewerCommandInfo>>;
}
