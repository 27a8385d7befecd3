/**
 * Passwords on the command line: the given one (`--password`, `--password-env`
 * or `--password-stdin`) is tried first for every file that needs one; on a
 * terminal the CLI asks (input hidden) when none was given or the given one was
 * wrong. Without a terminal (CI, pipes) nothing is asked and such a file fails
 * with PDF_ENCRYPTED / PDF_PASSWORD_WRONG. The password is never printed,
 * logged or stored. `--password` shows on the command line, which other users
 * of the machine can read (`ps`); the other two keep it out of it.
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

/** The password options of analyze and compare. */
export interface PasswordOptions {
  password?: string | undefined;
  'password-env'?: string | undefined;
  'password-stdin'?: boolean | undefined;
}

export const PASSWORD_OPTIONS = {
  password: { type: 'string' },
  'password-env': { type: 'string' },
  'password-stdin': { type: 'boolean', default: false },
} as const;

/**
 * The password the options give: `--password` itself, the variable `--password-env` names, or the first line of
 * standard input with `--password-stdin` (a pipe: `pass show pdf | npm run analyze -- --password-stdin ...`).
 * Undefined when none is given; a sentence saying what is wrong for two at once, an unset variable, or an empty or
 * interactive standard input (there the hidden prompt is the way).
 */
export async function givenPassword(
  options: PasswordOptions,
  env: NodeJS.ProcessEnv = process.env,
  stdin: NodeJS.ReadStream = process.stdin,
): Promise<{ password: string | undefined } | { problem: string }> {
  const given = [
    options.password !== undefined && '--password',
    options['password-env'] !== undefined && '--password-env',
    options['password-stdin'] === true && '--password-stdin',
  ].filter((o): o is string => typeof o === 'string');
  if (given.length > 1) return { problem: `Give the password one way: ${given.join(' and ')} were both given.` };
  if (options.password !== undefined) return { password: options.password };
  const variable = options['password-env'];
  if (variable !== undefined) {
    const value = env[variable];
    if (!value)
      return {
        problem: `The environment variable ${variable} (--password-env) is not set: export it with the PDF's password, e.g. read -rs ${variable} && export ${variable}.`,
      };
    return { password: value };
  }
  if (options['password-stdin'] !== true) return { password: undefined };
  if (stdin.isTTY)
    return {
      problem:
        '--password-stdin reads the password from a pipe (e.g. pass show report-pdf | npm run analyze -- --password-stdin ...). On a terminal, leave the password options out: the CLI asks, with hidden input.',
    };
  const line = (await readAll(stdin)).split(/\r?\n/)[0] ?? '';
  if (line === '') return { problem: '--password-stdin found no password on standard input (its first line is the password).' };
  return { password: line };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
