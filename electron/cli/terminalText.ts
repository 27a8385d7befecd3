/**
 * Text from outside (file names, document text, a model's words, a server's messages) shown on a terminal: its
 * control characters are written as visible escapes, so a file named `evil\e[31mRED\e[0m\nRun 9: done.md` cannot
 * recolour the terminal, move the cursor, set the window title or print a forged status line (security probe
 * 2026-11-28, row 14). Bidirectional overrides are escaped too: they reorder what the eye reads.
 *
 * The CLIs build each line of their output from such values and write it with writeLines; text meant to span
 * lines (an answer) keeps its line breaks with multilineText.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

/** One line: every control character (a line break too) shown escaped. */
export function oneLine(text: string): string {
  return text.replace(CONTROL, (char) => NAMED[char] ?? (char.charCodeAt(0) <= 0xff ? `\\x${hex(char, 2)}` : `\\u${hex(char, 4)}`));
}

/** Several lines (a model's answer, a multi-line note): line breaks kept, every other control character escaped. */
export function multilineText(text: string): string {
  return text.split('\n').map(oneLine).join('\n');
}

/** Writes each line made safe with oneLine, each ended by a line break. */
export function writeLines(stream: { write(text: string): unknown }, ...lines: string[]): void {
  stream.write(`${lines.map(oneLine).join('\n')}\n`);
}

function hex(char: string, digits: number): string {
  return char.charCodeAt(0).toString(16).padStart(digits, '0');
}
