import type { ReactNode } from 'react';

/** Internals (error codes, validator text, state names) behind a "Details" disclosure: the sentence comes first. */
export function Details({ children, summary = 'Details' }: { children: ReactNode; summary?: string }) {
  return (
    <details className="details">
      <summary>{summary}</summary>
      <div className="details__body">{children}</div>
    </details>
  );
}
