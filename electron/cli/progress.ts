import type { RunPhase } from '../../shared/pipeline';
import type { ProgressEvent } from '../../shared/types';
import { oneLine } from './terminalText';

export interface ProgressPrinter {
  update(event: ProgressEvent): void;
  /** A line of its own before the run has events (e.g. while the engine loads). */
  note(phase: RunPhase, message: string): void;
  done(): void;
}

/**
 * Progress for a terminal: one redrawn bar line on a TTY; on a pipe or in CI,
 * a plain line only when the phase or file changes, so logs stay readable.
 */
export function createProgressPrinter(stream: NodeJS.WriteStream = process.stderr): ProgressPrinter {
  const isTty = stream.isTTY === true;
  let lastKey = '';
  let drawn = false;
  return {
    note(phase, message) {
      this.update({ runId: 0, phase, current: 0, total: 0, message });
    },
    update(event) {
      // In a pool, which endpoint the file is on.
      // File names and server messages are shown, never obeyed: a line break or escape sequence in them is escaped.
      const message = oneLine(event.endpoint ? `${event.message} [${event.endpoint}]` : event.message);
      // The last line of a run that did not finish reads "stopped: <why>", never "done: Ollama is not reachable".
      const phase = event.phase === 'done' && event.runStatus !== undefined && event.runStatus !== 'done' ? 'stopped' : event.phase;
      if (isTty) {
        const width = 24;
        const ratio = event.total > 0 ? Math.min(1, event.current / event.total) : 0;
        const filled = Math.round(ratio * width);
        const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
        const columns = stream.columns ?? 100;
        stream.write(`\r${`${bar} ${phase.padEnd(6)} ${message}`.slice(0, columns - 1).padEnd(columns - 1)}`);
        drawn = true;
        return;
      }
      const key = `${event.phase}|${event.fileName ?? ''}|${event.endpoint ?? ''}`;
      const finalOfPhase = event.total > 0 && event.current === event.total;
      if (key !== lastKey || finalOfPhase) stream.write(`${phase}: ${message}\n`);
      lastKey = key;
    },
    done() {
      if (isTty && drawn) stream.write('\n');
    },
  };
}
