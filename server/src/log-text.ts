// Text that comes from outside (an admin's input, a store member someone wrote in the console, an
// admin's email) as it appears inside the plugin's log lines: every character that could end or
// rewrite a line, in any log viewer, is written as `\uXXXX` (the C0 and C1 controls, DEL, and the
// Unicode line and paragraph separators U+2028 and U+2029, which JavaScript and many viewers treat
// as line breaks), and a long value is cut, saying how long it was. One line stays one line.

/** Longest text kept whole in a log line. */
const MAX_LOGGED_CHARACTERS = 200;
const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

export function logText(text: string): string {
  const kept = text.length > MAX_LOGGED_CHARACTERS ? text.slice(0, MAX_LOGGED_CHARACTERS) : text;
  const escaped = kept.replace(LINE_BREAKING, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return kept === text ? escaped : `${escaped}... (${text.length} characters)`;
}
