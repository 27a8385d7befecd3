/**
 * OCR languages (issue 18): the installed ones are found from the `@tesseract.js-data/*` packages (never
 * downloaded), a missing one fails clearly with how to install it (engine, CLI and Settings), and a run reads with
 * the languages it was given: French accents come back with eng+fra (two packages in two folders, one worker).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../shared/errors';
import { parseOcrLanguages } from '../../../shared/ocr';
import { createEngine } from '../../../electron/engine';
import { assertOcrLanguagesInstalled, createTesseractRecognizer, installedOcrLanguages } from '../../../electron/engine/ocr';
import { getRun, loadExtractedDocument, openDatabase, type Database } from '../../../electron/engine/store';
import { createEngineHost } from '../../../electron/host/engineHost';
import { writeFixture } from '../../fixtures/pdfFactory';
import { makeScannedPdf } from '../../fixtures/scanFactory';
import { useTempDir } from '../../helpers/tempDir';

const root = resolve(import.meta.dirname, '../../..');
const tempDir = useTempDir('audit-ocr-lang-');
const dbs: Database[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

const FRENCH = ['Société Générale a reçu la déclaration', 'à l’échéance prévue, après contrôle du trésorier.'];

describe('OCR languages', () => {
  it('parses "eng+deu" style choices and refuses what is not a language code', () => {
    expect(parseOcrLanguages('eng+deu')).toEqual(['eng', 'deu']);
    expect(parseOcrLanguages(' ENG , fra ')).toEqual(['eng', 'fra']);
    expect(parseOcrLanguages('eng+eng')).toEqual(['eng']);
    expect(parseOcrLanguages('chi_sim')).toEqual(['chi_sim']);
    expect(parseOcrLanguages('')).toBeNull();
    expect(parseOcrLanguages('eng+../x')).toBeNull();
  });

  it('lists the languages whose data packages are installed, and only those with their data file', () => {
    expect(installedOcrLanguages()).toEqual(expect.arrayContaining(['eng', 'fra']));
    const scope = tempDir();
    for (const [name, file] of [
      ['deu', 'deu.traineddata.gz'],
      ['ita', 'README.md'],
    ] as const) {
      mkdirSync(join(scope, name, '4.0.0_best_int'), { recursive: true });
      writeFileSync(join(scope, name, '4.0.0_best_int', file), 'x');
    }
    mkdirSync(join(scope, 'osd'));
    expect(installedOcrLanguages(scope)).toEqual(['deu']);
  });

  it('fails clearly for a language whose data is not installed, naming the package to install', () => {
    const failure = (() => {
      try {
        assertOcrLanguagesInstalled(['eng', 'deu', 'spa']);
      } catch (error) {
        return error as { code: string; message: string; details: { missing: string[] } };
      }
      throw new Error('expected OCR_LANGUAGE_MISSING');
    })();
    expect(failure.code).toBe(ErrorCode.OCR_LANGUAGE_MISSING);
    expect(failure.message).toContain('npm install @tesseract.js-data/deu @tesseract.js-data/spa');
    expect(failure.message).toMatch(/installed: eng, fra/);
    expect(failure.details.missing).toEqual(['deu', 'spa']);
    expect(() => assertOcrLanguagesInstalled(['fra', 'eng'])).not.toThrow();
  });

  it('reads a French scan with eng+fra through a run, stores the languages with the run, and keys the cache by them', { timeout: 240_000 }, async () => {
    const dir = tempDir();
    const file = writeFixture(join(dir, 'french.pdf'), await makeScannedPdf([{ lines: FRENCH }]));
    const db = openDatabase(join(dir, 'store.sqlite'));
    dbs.push(db);
    const engine = createEngine({ db, appVersion: 'test' });
    const outcome = await engine.analyze([file], { mode: 'rules-only', ocrLanguages: ['eng', 'fra'] });
    expect(outcome.inputs[0]!.status).toBe('done');
    const text = loadExtractedDocument(db, outcome.inputs[0]!.documentId!)!.text;
    // English data alone reads "recu", "apres" and "controle" here (measured): these words need the French data.
    for (const word of ['Société', 'Générale', 'reçu', 'déclaration', 'échéance', 'prévue', 'après', 'contrôle', 'trésorier.']) expect(text).toContain(word);
    expect(getRun(db, outcome.run.id)!.settings!.ocrLanguages).toEqual(['eng', 'fra']);
    expect(db.prepare('SELECT recognizer FROM ocr_cache').all()).toEqual([{ recognizer: 'tesseract.js-7/lstm/eng+fra' }]);
    expect(createTesseractRecognizer(['eng']).id).not.toBe(createTesseractRecognizer(['eng', 'fra']).id);
  });

  it('fails a scanned file (and only it) with OCR_LANGUAGE_MISSING when a chosen language was uninstalled', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const file = writeFixture(join(dir, 'scan.pdf'), await makeScannedPdf([{ lines: ['Account 4410 shows a balance in credit.'] }]));
    const db = openDatabase(join(dir, 'store.sqlite'));
    dbs.push(db);
    const outcome = await createEngine({ db, appVersion: 'test' }).analyze([file], { mode: 'rules-only', ocrLanguages: ['eng', 'deu'] });
    expect(outcome.run.status).toBe('done');
    expect(outcome.inputs[0]).toMatchObject({ status: 'failed', error: { code: ErrorCode.OCR_LANGUAGE_MISSING } });
    expect(outcome.inputs[0]!.error!.message).toContain('npm install @tesseract.js-data/deu');
  });

  it('the CLI takes --ocr-lang, shows OCR as a phase page by page, and refuses a missing language before reading any file', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const cli = (args: string[]) =>
      spawnSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'electron/cli/analyze.ts'), ...args], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
    const missing = cli(['--rules-only', '--db', join(dir, 'a.sqlite'), '--ocr-lang', 'eng+deu', 'nowhere.pdf']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('OCR_LANGUAGE_MISSING: OCR language data for "deu" is not installed');
    expect(missing.stderr).toContain('npm install @tesseract.js-data/deu');
    const scan = writeFixture(join(dir, 'scan.pdf'), await makeScannedPdf([{ lines: ['Account 4410 shows a balance in credit.'] }]));
    const read = cli(['--rules-only', '--db', join(dir, 'c.sqlite'), '--out', join(dir, 'c.md'), '--ocr-lang', 'eng', scan]);
    expect(read.status).toBe(0);
    expect(read.stderr).toMatch(/^ocr: file 1 of 1: OCR page 1 of 1: reading page 1$/m);
    expect(read.stderr).toMatch(/^ocr: file 1 of 1: OCR page 1 of 1: page 1 read$/m);
    const bad = cli(['--rules-only', '--ocr-lang', 'eng+../x', 'nowhere.pdf']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--ocr-lang takes tesseract language codes joined with +');
    // With OCR off the languages do not matter: the run goes on (and fails only on the missing file).
    const off = cli(['--rules-only', '--db', join(dir, 'b.sqlite'), '--ocr', 'off', '--ocr-lang', 'deu', 'nowhere.pdf']);
    expect(off.stderr).not.toContain('OCR_LANGUAGE_MISSING');
    expect(off.stdout + off.stderr).toContain('FILE_NOT_FOUND');
  });

  it('Settings lists the installed languages by name and refuses to save one that is not installed', async () => {
    const host = createEngineHost({ dataDir: tempDir(), appVersion: 't' });
    const languages = await host.invoke('ocr.languages', {});
    expect(languages).toMatchObject({
      ok: true,
      data: expect.arrayContaining([
        { code: 'eng', name: 'English' },
        { code: 'fra', name: 'French' },
      ]),
    });
    expect(await host.invoke('settings.get', {})).toMatchObject({ ok: true, data: { ocrLanguages: ['eng'] } });
    expect(await host.invoke('settings.update', { ocrLanguages: ['eng', 'deu'] })).toMatchObject({ ok: false, error: { code: 'OCR_LANGUAGE_MISSING' } });
    expect(await host.invoke('settings.update', { ocrLanguages: ['fra', 'eng'] })).toMatchObject({ ok: true, data: { ocrLanguages: ['fra', 'eng'] } });
    expect(await host.invoke('settings.get', {})).toMatchObject({ ok: true, data: { ocrLanguages: ['fra', 'eng'] } });
    await host.close();
  });
});
