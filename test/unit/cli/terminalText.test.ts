/** Text from outside shown on a terminal is never obeyed by it (electron/cli/terminalText.ts, progress.ts). */
import { describe, expect, it } from 'vitest';
import { createProgressPrinter } from '../../../electron/cli/progress';
import { multilineText, oneLine, writeLines } from '../../../electron/cli/terminalText';

const HOSTILE = 'evil\u001b[31mRED\u001b[0m\nRun 9: done.md';

describe('text shown on a terminal', () => {
  it('escapes line breaks, escape sequences, other C0/C1 controls and bidirectional overrides on one line', () => {
    expect(oneLine(HOSTILE)).toBe('evil\\e[31mRED\\e[0m\\nRun 9: done.md');
    expect(oneLine('bell\u0007 cr\r tab\t del\u007f csi\u009b2J rtl\u202efdp.exe')).toBe('bell\\x07 cr\\r tab\\t del\\x7f csi\\x9b2J rtl\\u202efdp.exe');
    expect(oneLine('Ünïcödé stays — as it is, “quoted”')).toBe('Ünïcödé stays — as it is, “quoted”');
  });

  it('keeps the line breaks of text meant to span lines, escaping the rest', () => {
    expect(multilineText('First paragraph.\n\u001b]0;title\u0007Second.\r')).toBe('First paragraph.\n\\e]0;title\\x07Second.\\r');
  });

  it('writes each line escaped, so a value cannot start a line of its own', () => {
    let written = '';
    writeLines({ write: (text: string) => (written += text) }, `  ${HOSTILE}: done`, 'Report: r.md');
    expect(written).toBe('  evil\\e[31mRED\\e[0m\\nRun 9: done.md: done\nReport: r.md\n');
    expect(written.split('\n').some((line) => line.startsWith('Run 9'))).toBe(false);
  });

  it('escapes progress messages, on a pipe and on a terminal', () => {
    for (const isTTY of [false, true]) {
      let written = '';
      const stream = { isTTY, columns: 200, write: (text: string) => (written += text) } as unknown as NodeJS.WriteStream;
      const progress = createProgressPrinter(stream);
      progress.update({ runId: 1, phase: 'ingest', current: 1, total: 1, message: `${HOSTILE}: failed` });
      progress.done();
      expect(written).not.toContain('\u001b');
      expect(written).toContain('evil\\e[31mRED\\e[0m\\nRun 9: done.md: failed');
    }
  });
});
