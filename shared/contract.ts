/**
 * The IPC contract between the renderer and the engine host. Every command is
 * `domain.verb`, its input a zod schema the host parses before touching the
 * engine, its result `Result<T>`. The desktop app's preload and the test
 * WebSocket bridge both expose exactly this, nothing more.
 */
import { z } from 'zod';

export const commands = {
  /** The app's version and where its data lives. */
  'app.info': { input: z.object({}).strict() },
  /** Every stored document with its page count. */
  'documents.list': { input: z.object({}).strict() },
} as const;

export type CommandName = keyof typeof commands;
export type CommandInput<C extends CommandName> = z.infer<(typeof commands)[C]['input']>;

export interface AppInfo {
  version: string;
  dataDir: string;
}

export interface DocumentSummary {
  id: number;
  fileName: string;
  pageCount: number;
  sha256: string;
}

export interface CommandOutputs {
  'app.info': AppInfo;
  'documents.list': DocumentSummary[];
}

/** The channel name a command travels on, in Electron IPC. */
export const ipcChannel = (command: CommandName): string => `cmd:${command}`;
