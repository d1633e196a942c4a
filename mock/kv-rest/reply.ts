// Typed replies: what every engine returns and every output format (JSON, base64 JSON, RESP2) encodes.
// Simple and bulk strings stay distinct because RESP2 and the base64 `OK` rule tell them apart.

export interface SimpleReply { readonly kind: 'simple'; readonly value: string }
export interface ErrorReply { readonly kind: 'error'; readonly message: string }
export interface IntegerReply { readonly kind: 'integer'; readonly value: number | bigint }
/** `value` is a byte string (see bytes.ts). */
export interface BulkReply { readonly kind: 'bulk'; readonly value: string }
/** `$-1` in RESP2; `nullArray` is `*-1`. Both are JSON null. */
export interface NilReply { readonly kind: 'nil' | 'nullArray' }
export interface ArrayReply { readonly kind: 'array'; readonly items: readonly Reply[] }

export type Reply = SimpleReply | ErrorReply | IntegerReply | BulkReply | NilReply | ArrayReply;

export const OK: SimpleReply = { kind: 'simple', value: 'OK' };
export const QUEUED: SimpleReply = { kind: 'simple', value: 'QUEUED' };
export const NIL: NilReply = { kind: 'nil' };
export const NULL_ARRAY: NilReply = { kind: 'nullArray' };
export const EMPTY_ARRAY: ArrayReply = { kind: 'array', items: [] };

export const simple = (value: string): SimpleReply => ({ kind: 'simple', value });
export const error = (message: string): ErrorReply => ({ kind: 'error', message });
export const integer = (value: number | bigint): IntegerReply => ({ kind: 'integer', value });
export const bulk = (value: string): BulkReply => ({ kind: 'bulk', value });
export const array = (items: readonly Reply[]): ArrayReply => ({ kind: 'array', items });

/** A bulk string, or nil when the value is absent. */
export const bulkOrNil = (value: string | undefined | null): BulkReply | NilReply =>
  value === undefined || value === null ? NIL : bulk(value);

export const bulkArray = (values: readonly string[]): ArrayReply => array(values.map(bulk));

export const isError = (reply: Reply): reply is ErrorReply => reply.kind === 'error';
