/**
 * The app's side of encrypted PDFs: when a dropped PDF needs a password its
 * input fails with PDF_ENCRYPTED (or PDF_PASSWORD_WRONG after a wrong one);
 * the window asks the user (PasswordDialog) and sends `runs.unlock`, which
 * puts that input back in the queue and resumes the run with the password
 * for that one file, once. Nothing here stores or logs it.
 */
import type { ParsedInput, RunRef } from '../../shared/contract';
import { AppError, ErrorCode } from '../../shared/errors';
import { oneTimePassword, requeueForPassword } from '../engine';
import type { HostContext } from './context';
import type { HandlerModule } from './handlerMap';

export function passwordHandlers(ctx: HostContext): HandlerModule {
  return {
    'runs.unlock': async ({ runId, ordinal, password }: ParsedInput<'runs.unlock'>): Promise<RunRef> => {
      if (ctx.runs.isActive(runId)) {
        throw new AppError(ErrorCode.INVALID_INPUT, 'This run is still reading its other files. Enter the password again when it has finished.');
      }
      const { filePath } = requeueForPassword(ctx.db, runId, ordinal, ctx.now().toISOString());
      return ctx.runs.resume(runId, { password: oneTimePassword(filePath, password) });
    },
  };
}
