import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../../shared/errors';
import { cliPasswordSource, givenPassword, terminalPrompt } from '../../../electron/cli/passwordPrompt';
import { MAX_PASSWORD_ATTEMPTS, oneTimePassword, withPassword, type PasswordRequest } from '../../../electron/engine/pipeline/passwords';

const request = { filePath: '/x/a.pdf', fileName: 'a.pdf' };
const encrypted = () => new AppError(ErrorCode.PDF_ENCRYPTED, 'needs one');
const wrong = () => new AppError(ErrorCode.PDF_PASSWORD_WRONG, 'wrong');

/** A file that opens only with `secret`, like pdf.js: no password -> PDF_ENCRYPTED, another -> PDF_PASSWORD_WRONG. */
const opener = (secret: string, tried: (string | undefined)[]) => async (password: string | undefined) => {
  tried.push(password);
  if (password === undefined) throw encrypted();
  if (password !== secret) throw wrong();
  return 'opened';
};

describe('withPassword', () => {
  it('tries without a password first, then asks (required, then wrong) until one opens the file', async () => {
    const tried: (string | undefined)[] = [];
    const asked: PasswordRequest['reason'][] = [];
    const answers = ['nope', 'right'];
    const result = await withPassword(request, (r) => (asked.push(r.reason), answers.shift()), opener('right', tried));
    expect(result).toEqual({ value: 'opened', password: 'right' });
    expect(tried).toEqual([undefined, 'nope', 'right']);
    expect(asked).toEqual(['required', 'wrong']);
  });

  it('gives up with the error that asked when the source has no (more) answers, or after too many wrong ones', async () => {
    await expect(withPassword(request, undefined, opener('s', []))).rejects.toMatchObject({ code: ErrorCode.PDF_ENCRYPTED });
    await expect(withPassword(request, oneTimePassword('/x/a.pdf', 'bad'), opener('s', []))).rejects.toMatchObject({ code: ErrorCode.PDF_PASSWORD_WRONG });
    // A one-time password is for its own file only.
    await expect(withPassword(request, oneTimePassword('/x/other.pdf', 's'), opener('s', []))).rejects.toMatchObject({ code: ErrorCode.PDF_ENCRYPTED });
    const tried: (string | undefined)[] = [];
    await expect(withPassword(request, () => 'always-wrong', opener('s', tried))).rejects.toMatchObject({ code: ErrorCode.PDF_PASSWORD_WRONG });
    expect(tried).toHaveLength(1 + MAX_PASSWORD_ATTEMPTS);
  });

  it('lets every other error through untouched, without asking', async () => {
    let asked = false;
    const corrupt = new AppError(ErrorCode.PDF_CORRUPT, 'damaged');
    await expect(
      withPassword(
        request,
        () => ((asked = true), 'x'),
        () => Promise.reject(corrupt),
      ),
    ).rejects.toBe(corrupt);
    expect(asked).toBe(false);
  });
});

function fakeTerminal() {
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    rawModes: [] as boolean[],
    setRawMode(mode: boolean) {
      input.rawModes.push(mode);
      return input;
    },
  });
  const output = Object.assign(new PassThrough(), { isTTY: true });
  let printed = '';
  output.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  return { input, output, printed: () => printed };
}

describe('CLI password source', () => {
  it('uses --password first, then asks on the terminal with hidden input (backspace works, nothing echoed)', async () => {
    const terminal = fakeTerminal();
    const prompt = terminalPrompt(terminal.input as unknown as NodeJS.ReadStream, terminal.output as unknown as NodeJS.WriteStream)!;
    const source = cliPasswordSource('given-pw', prompt);
    expect(await source({ ...request, reason: 'required' })).toBe('given-pw');
    const answer = source({ ...request, reason: 'wrong' });
    terminal.input.write('tyXpo\u007f\u007f\u007fpo\r');
    expect(await answer).toBe('typo');
    expect(terminal.printed()).toContain('Wrong password. Password for "a.pdf"');
    expect(terminal.printed()).not.toContain('typo');
    expect(terminal.input.rawModes).toEqual([true, false]);
  });

  it('an empty answer skips the file; without a terminal nothing is asked', async () => {
    const terminal = fakeTerminal();
    const prompt = terminalPrompt(terminal.input as unknown as NodeJS.ReadStream, terminal.output as unknown as NodeJS.WriteStream)!;
    const answer = cliPasswordSource(undefined, prompt)({ ...request, reason: 'required' });
    terminal.input.write('\r');
    expect(await answer).toBeUndefined();
    const pipe = Object.assign(new PassThrough(), { isTTY: false });
    expect(terminalPrompt(pipe as unknown as NodeJS.ReadStream, terminal.output as unknown as NodeJS.WriteStream)).toBeUndefined();
    expect(await cliPasswordSource(undefined, undefined)({ ...request, reason: 'required' })).toBeUndefined();
  });
});

describe('the password the CLI options give (givenPassword)', () => {
  const pipe = (text: string) => {
    const stream = new PassThrough();
    stream.end(text);
    return stream as unknown as NodeJS.ReadStream;
  };

  it('reads --password, the variable --password-env names, or the first line of a piped standard input', async () => {
    expect(await givenPassword({ password: 'p1' }, {}, pipe(''))).toEqual({ password: 'p1' });
    expect(await givenPassword({ 'password-env': 'PW' }, { PW: 'p2' }, pipe(''))).toEqual({ password: 'p2' });
    expect(await givenPassword({ 'password-stdin': true }, {}, pipe('p3\r\nrest\n'))).toEqual({ password: 'p3' });
    expect(await givenPassword({}, { PW: 'unused' }, pipe('unused'))).toEqual({ password: undefined });
  });

  it('says what is wrong: two ways at once, an unset variable, an empty pipe, a terminal instead of a pipe', async () => {
    expect(await givenPassword({ password: 'a', 'password-env': 'PW' }, { PW: 'b' }, pipe(''))).toEqual({
      problem: expect.stringMatching(/one way: --password and --password-env/),
    });
    expect(await givenPassword({ 'password-env': 'PW' }, {}, pipe(''))).toEqual({ problem: expect.stringMatching(/PW \(--password-env\) is not set/) });
    expect(await givenPassword({ 'password-stdin': true }, {}, pipe('\n'))).toEqual({ problem: expect.stringMatching(/found no password/) });
    const terminal = Object.assign(new PassThrough(), { isTTY: true }) as unknown as NodeJS.ReadStream;
    expect(await givenPassword({ 'password-stdin': true }, {}, terminal)).toEqual({
      problem: expect.stringMatching(/reads the password from a pipe.*hidden input/),
    });
  });
});
