import { AppError, ErrorCode } from '../../../shared/errors';

/** Why a run is asked to stop: a pause keeps the run resumable and says so; a cancel ends it (resumable too). */
export type StopKind = 'pause' | 'cancel';

/**
 * The typed reason a run's AbortController is aborted with
 * (`controller.abort(new StopRequest('pause'))`), so the runner tells a pause
 * from a cancel by type, not by comparing strings. Any other abort reason
 * (a plain `abort()`, a timeout, Ctrl-C) counts as a cancel.
 */
export class StopRequest extends Error {
  readonly kind: StopKind;

  constructor(kind: StopKind, message: string = kind === 'pause' ? 'Paused.' : 'Cancelled.') {
    super(message);
    this.name = 'StopRequest';
    this.kind = kind;
  }
}

/** How an aborted signal asks the run to stop; 'cancel' for any reason that is not a StopRequest. */
export function stopKindOf(signal: AbortSignal | undefined): StopKind {
  return signal?.reason instanceof StopRequest ? signal.reason.kind : 'cancel';
}

/** The CANCELLED error every stage throws when its signal fires, saying whether it was a pause (`cancelMessage`: a stage's own words for a cancel). */
export function cancelledError(signal?: AbortSignal, cancelMessage = 'Cancelled.'): AppError {
  const kind = stopKindOf(signal);
  return new AppError(ErrorCode.CANCELLED, kind === 'pause' ? 'Paused.' : cancelMessage, { reason: kind });
}

/** The engine's one check between units of work: throws CANCELLED once the signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined, cancelMessage?: string): void {
  if (signal?.aborted) throw cancelledError(signal, cancelMessage);
}
