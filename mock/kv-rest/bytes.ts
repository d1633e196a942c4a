// Byte strings: the engines' representation of Redis's binary-safe strings.
// A byte string is a JS string whose every char code is 0..255, one char per byte (latin1). It keeps
// keys and values binary-safe while staying a cheap Map key; UTF-8 text is converted at the edges.

const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** UTF-8 bytes of a JS (UTF-16) string, as a byte string. ASCII passes through unchanged. */
export function utf8ToBytes(text: string): string {
  return ASCII_ONLY.test(text) ? text : Buffer.from(text, 'utf8').toString('latin1');
}

/** Decodes a byte string as UTF-8; invalid sequences become U+FFFD, as the REST API promises. */
export function bytesToUtf8(bytes: string): string {
  return ASCII_ONLY.test(bytes) ? bytes : Buffer.from(bytes, 'latin1').toString('utf8');
}

export function bufferToBytes(buffer: Buffer): string {
  return buffer.toString('latin1');
}

export function bytesToBuffer(bytes: string): Buffer {
  return Buffer.from(bytes, 'latin1');
}

export function bytesToBase64(bytes: string): string {
  return Buffer.from(bytes, 'latin1').toString('base64');
}
