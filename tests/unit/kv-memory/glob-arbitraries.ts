// Characters for random glob patterns and texts: every character Redis's stringmatchlen treats
// specially, bytes above 0x7f, and plain letters. Shared by the glob's own tests and its
// comparison with redis-server.
import fc from 'fast-check';

export const patternChars = fc.constantFrom('a', 'b', '*', '?', '[', ']', '^', '-', '\\', '\x80', '\xff', 'z');
export const textChars = fc.constantFrom('a', 'b', ']', '-', '^', '\\', '*', '\x80', '\xff', 'z', '[');
