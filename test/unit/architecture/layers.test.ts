import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The layer arrows are enforced by lint; these cases prove the rules fire (and stay quiet for allowed imports).
const root = resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });

async function restrictedImportErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: resolve(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layer rules', () => {
  it.each([
    ['electron/engine/pipeline/x.ts', "import { app } from 'electron';\nexport const a = app;"],
    ['electron/engine/pipeline/x.ts', "import { a } from '../../main/index';\nexport const b = a;"],
    ['shared/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;"],
    ['shared/x.ts', "import { a } from '../electron/engine/index';\nexport const b = a;"],
    ['renderer/src/x.ts', "import { a } from '../../electron/engine/store';\nexport const b = a;"],
    ['renderer/src/x.ts', "import Database from 'better-sqlite3';\nexport const b = Database;"],
    // Components reach the engine through the store only.
    ['renderer/src/components/X.tsx', "import { invoke } from '../api';\nexport const a = invoke;"],
    ['renderer/src/components/review/X.tsx', "import { invoke } from '../../api';\nexport const a = invoke;"],
    ['electron/preload/x.ts', "import { a } from '../engine/store';\nexport const b = a;"],
    ['electron/cli/x.ts', "import { app } from 'electron';\nexport const a = app;"],
    // Engine modules meet through their index.ts only; hosts use the engine's public surface.
    ['electron/engine/report/x.ts', "import { getRun } from '../store/runs';\nexport const a = getRun;"],
    ['electron/engine/treesplit/x.ts', "import { insertJudgeDecision } from '../judge/store';\nexport const a = insertJudgeDecision;"],
    ['electron/engine/x.ts', "import { executeRun } from './pipeline/runner';\nexport const a = executeRun;"],
    ['electron/host/x.ts', "import { getRun } from '../engine/store/runs';\nexport const a = getRun;"],
    ['electron/cli/x.ts', "import { defaultRunSettings } from '../engine/pipeline/settings';\nexport const a = defaultRunSettings;"],
    ['electron/main/x.ts', "import { openDatabase } from '../engine/store/db';\nexport const a = openDatabase;"],
    // printed/ is one floor below the stages: it imports none of them, and the engine's rules still hold there.
    ['electron/engine/printed/x.ts', "import { checkCompleteness } from '../completeness';\nexport const a = checkCompleteness;"],
    ['electron/engine/printed/x.ts', "import type { ExtractionReply } from '../extract';\nexport type A = ExtractionReply;"],
    ['electron/engine/printed/x.ts', "import { compareFindings } from '../merge';\nexport const a = compareFindings;"],
    ['electron/engine/printed/x.ts', "import { getRun } from '../store';\nexport const a = getRun;"],
    ['electron/engine/printed/x.ts', "import { app } from 'electron';\nexport const a = app;"],
    ['electron/engine/printed/x.ts', "import { findIdMentions } from '../rules/findMentions';\nexport const a = findIdMentions;"],
  ])('refuse a forbidden import in %s', async (file, source) => {
    expect(await restrictedImportErrors(file, source)).toHaveLength(1);
  });

  it.each([
    ['electron/engine/pipeline/x.ts', "import { ErrorCode } from '../../../shared/errors';\nexport const a = ErrorCode;"],
    ['renderer/src/x.ts', "import { commands } from '../../shared/contract';\nexport const a = commands;"],
    ['renderer/src/components/X.tsx', "import { store } from '../store';\nexport const a = store;"],
    ['renderer/src/store/x.ts', "import { invoke } from '../api';\nexport const a = invoke;"],
    ['electron/main/x.ts', "import { openDatabase } from '../engine/store';\nexport const a = openDatabase;"],
    ['electron/engine/report/x.ts', "import { getRun } from '../store';\nimport { renderJson } from './json';\nexport const a = [getRun, renderJson];"],
    [
      'electron/engine/printed/x.ts',
      "import { runInSlices } from '../util';\nimport { findIdMentions } from '../rules';\nimport { pageAt } from '../../../shared/canonical';\nimport { textLines } from './textLines';\nexport const a = [runInSlices, findIdMentions, pageAt, textLines];",
    ],
    ['electron/engine/store/migrations/x.ts', "import type { Migration } from '../migrate';\nexport type A = Migration;"],
    ['electron/host/x.ts', "import { getRun } from '../engine/store';\nimport { createEngine } from '../engine';\nexport const a = [getRun, createEngine];"],
  ])('allow the contract and downward imports in %s', async (file, source) => {
    expect(await restrictedImportErrors(file, source)).toEqual([]);
  });
});

describe('one owner per state: a run’s and an input’s status change only in pipeline/runStatus.ts', () => {
  async function syntaxErrors(file: string, source: string): Promise<string[]> {
    const [result] = await eslint.lintText(source, { filePath: resolve(root, file) });
    return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  }
  const setsStatus =
    "import { updateRunInput, setRunStatus } from '../store';\nupdateRunInput(db, 1, 0, { status: 'queued' });\nsetRunStatus(db, 1, 'paused', now);\n";

  it('refuses a status written anywhere else', async () => {
    const errors = await syntaxErrors('electron/engine/pipeline/pool.ts', setsStatus);
    expect(errors).toHaveLength(2);
    expect(errors.join('\n')).toMatch(/input's status changes through the runner's rules/);
    expect(errors.join('\n')).toMatch(/run status changes through the runner's rules/);
  });

  it('lets the runner write an input’s phase, and runStatus.ts its status', async () => {
    expect(
      await syntaxErrors('electron/engine/pipeline/runner.ts', "import { updateRunInput } from '../store';\nupdateRunInput(db, 1, 0, { phase: 'tree' });\n"),
    ).toEqual([]);
    expect(await syntaxErrors('electron/engine/pipeline/runStatus.ts', setsStatus)).toEqual([]);
  });
});
