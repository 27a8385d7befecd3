/**
 * Passwords on the command line: `--password` is tried first for every file
 * that needs one; on a terminal the CLI asks (input hidden) when none was
 * given or the given one was wrong. Without a terminal (CI, pipes) nothing is
 * asked and such a file fails with PDF_ENCRYPTED / PDF_PASSWORD_WRONG. The
 * password is never printed, logged or stored.
 */
import type { PasswordRequest, PasswordSource } from '../engine';

export type Prompt = (request: PasswordRequest) => Promise<string | undefined>;

export function cliPasswordSource(given: string | undefined, prompt: Prompt | undefined): PasswordSource {
  return (request) => {
    if (request.reason === 'required' && given !== undefined) return given;
    return prompt?.(request);
  };
}

/** A hidden prompt on the terminal, or undefined when stdin/stderr is not one. */
export function terminalPrompt(input: NodeJS.ReadStream = process.stdin, output: NodeJS.WriteStream = process.stderr): Prompt | undefined {
  if (!input.isTTY || !output.isTTY) return undefined;
  return (request) => {
    const question = `\n${request.reason === 'wrong' ? 'Wrong password. ' : ''}Password for "${request.fileName}" (empty to skip this file): `;
    return readHidden(input, output, question).then((answer) => (answer === '' ? undefined : answer));
  };
}

function readHidden(input: NodeJS.ReadStream, output: NodeJS.WriteStream, question: string): Promise<string> {
  output.write(question);
  input.setRawMode(true);
  input.resume();
  return new Promise((resolve) => {
    let answer = '';
    const finish = (value: string): void => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
      resolve(value);
    };
    const onData = (chunk: Buffer): void => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish(answer);
        // Ctrl-C or Ctrl-D: skip this file (the input fails with its code; Ctrl-C again stops the run).
        if (char === '\u0003' || char === '\u0004') return finish('');
        if (char === '\u007f' || char === '\b') answer = answer.slice(0, -1);
        else if (char >= ' ') answer += char;
      }
    };
    input.on('data', onData);
  });
}
