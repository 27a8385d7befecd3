import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The app version from package.json, shown in reports so a reader knows what produced them. */
export function appVersion(): string {
  const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
  return pkg.version;
}
