/**
 * `npm run <script> -- <args>` as npm runs it, for tests of the README's commands: the script's command line from
 * package.json in a shell. Its paths into the project are made absolute, so that it can run in a folder of the test's
 * own (npm runs it in the project folder, where relative file names and the default report land).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

export const packageScripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

export function npmRunArgs(script: string, args: readonly string[] = []): [string, string[]] {
  const line = packageScripts[script];
  if (line === undefined) throw new Error(`package.json has no script "${script}"`);
  const command = line.split(' ').map((token) => (token.includes('/') && existsSync(join(root, token)) ? join(root, token) : token));
  const quoted = args.map((arg) => `'${arg.replaceAll("'", `'\\''`)}'`);
  return ['sh', ['-c', [...command, ...quoted].join(' ')]];
}
