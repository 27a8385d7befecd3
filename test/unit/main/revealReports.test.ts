import { describe, expect, it } from 'vitest';
import { createRevealer } from '../../../electron/main/revealReports';

describe('opening exported reports from the window', () => {
  it('allows only files an export produced in this session (the exports copy and the saved copy)', () => {
    const revealer = createRevealer();
    expect(revealer.allowed('/data/exports/run-1.html')).toBeNull();
    revealer.remember({ path: '/data/exports/run-1.html', savedTo: '/home/me/report.html' });
    expect(revealer.allowed('/data/exports/run-1.html')).toBe('/data/exports/run-1.html');
    expect(revealer.allowed('/home/me/report.html')).toBe('/home/me/report.html');
    expect(revealer.allowed('/etc/passwd')).toBeNull();
    expect(revealer.allowed('/data/exports/run-1.html/../../secret')).toBeNull();
  });
});
