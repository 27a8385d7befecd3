/** Where the user is: the sidebar's place, where Back returns to, the detail panel's width, and the app's facts. */
import type { AppInfo } from '../../../shared/contract';
import { patcher, type SliceCreator } from './slice';

/** The sidebar's places. `findings` is the triage queue (review and findings in one). */
export type View = 'library' | 'runs' | 'document' | 'findings' | 'ask' | 'compare' | 'reconcile' | 'settings';

const DETAIL_WIDTH_KEY = 'audit.detailWidth';

function storedWidth(): number {
  const saved = Number(globalThis.localStorage?.getItem(DETAIL_WIDTH_KEY));
  return Number.isFinite(saved) && saved >= 320 ? saved : 520;
}

export interface NavSlice {
  view: View;
  /** Where "Back" returns to, when the user followed a link into another place (a finding's page, a run's file). */
  backTo: View | null;
  /** Width of the resizable detail panel, in px (kept between sessions). */
  detailWidth: number;
  info: AppInfo | null;
  error: string | null;
  /** Shows a place chosen in the sidebar (no way back: it is not a link). */
  setView(view: View): void;
  /** Shows a place a link leads to, remembering the place it was followed from. */
  follow(view: View): void;
  goBack(): void;
  setDetailWidth(width: number): void;
  loadInfo(): Promise<void>;
}

export const createNavSlice: SliceCreator<'nav'> = (set, get) => {
  const patch = patcher(set, 'nav');
  return {
    nav: {
      view: 'library',
      backTo: null,
      detailWidth: storedWidth(),
      info: null,
      error: null,
      setView: (view) => patch({ view, backTo: null }),
      follow: (view) => patch((s) => ({ view, backTo: s.view === view ? s.backTo : s.view })),
      goBack: () => patch((s) => ({ view: s.backTo ?? 'library', backTo: null })),
      setDetailWidth(width) {
        const detailWidth = Math.round(Math.max(320, Math.min(width, 1100)));
        globalThis.localStorage?.setItem(DETAIL_WIDTH_KEY, String(detailWidth));
        patch({ detailWidth });
      },
      async loadInfo() {
        const result = await get().host.call('app.info', {});
        patch(result.ok ? { info: result.data, error: null } : { error: result.error.message });
      },
    },
  };
};
