import type { HostEvent } from '../../shared/contract';
import type { ErrorInfo, Result } from '../../shared/errors';

/** Main -> utility process. */
export type MainToHost =
  | { type: 'invoke'; id: number; command: string; input: unknown }
  | { type: 'shutdown' }
  /** Endpoint API keys by keyRef, decrypted by main from safeStorage: kept in the host's memory only. */
  | { type: 'keys'; keys: Record<string, string> }
  /** The answer to a `print-pdf` request: the PDF's bytes (base64) or why printing failed. */
  | { type: 'pdf-result'; id: number; ok: true; base64: string }
  | { type: 'pdf-result'; id: number; ok: false; error: ErrorInfo };
/** Utility process -> main. */
export type HostToMain =
  | { type: 'ready' }
  | { type: 'result'; id: number; result: Result<unknown> }
  | { type: 'event'; event: HostEvent }
  /** The utility process cannot print: it asks main to print report HTML to PDF with Electron's printToPDF. */
  | { type: 'print-pdf'; id: number; html: string; footerLabel: string };
