import { useRef, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { store, useStore } from '../store';

/**
 * A list and a detail side by side, each scrolling on its own (the list stays put while the detail scrolls),
 * with a separator that resizes the detail by mouse or keyboard (arrows, 40 px a step).
 */
export function SplitPane({ list, detail, label }: { list: ReactNode; detail: ReactNode; label: string }) {
  const width = useStore((s) => s.nav.detailWidth);
  const setWidth = store().nav.setDetailWidth;
  const root = useRef<HTMLDivElement>(null);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    const handle = event.currentTarget;
    handle.setPointerCapture(event.pointerId);
    const move = (e: globalThis.PointerEvent) => {
      const box = root.current?.getBoundingClientRect();
      if (box) setWidth(Math.min(box.right - e.clientX, box.width - 300));
    };
    const up = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'ArrowLeft') setWidth(width + 40);
    else if (event.key === 'ArrowRight') setWidth(width - 40);
    else return;
    event.preventDefault();
  };

  return (
    <div className="split" ref={root} style={{ gridTemplateColumns: `minmax(300px, 1fr) 8px min(${width}px, calc(100% - 308px))` }}>
      <div className="split__list">{list}</div>
      <div
        className="split__handle"
        role="separator"
        aria-orientation="vertical"
        aria-label={`Resize the ${label}`}
        aria-valuenow={width}
        aria-valuemin={320}
        aria-valuemax={1100}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onKeyDown={onKeyDown}
      />
      <div className="split__detail">{detail}</div>
    </div>
  );
}
