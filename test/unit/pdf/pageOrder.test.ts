import { describe, expect, it } from 'vitest';
import { createPageOrder } from '../../../electron/engine/pdf/pageOrder';
import type { RawPage } from '../../../electron/engine/pdf/rawExtractor.mjs';

const page = (pageNumber: number): RawPage => ({ pageNumber, width: 600, height: 800, items: [] });

describe('pages from several workers reach the sink in page order, after the info', () => {
  it('holds pages until the info has been delivered', () => {
    const delivered: number[] = [];
    const order = createPageOrder((p) => delivered.push(p.pageNumber));
    order.add(page(1));
    expect(order.deliver(2)).toBe(false);
    expect(delivered).toEqual([]);
    order.infoDelivered();
    expect(order.deliver(2)).toBe(false);
    expect(delivered).toEqual([1]);
  });

  it('keeps a page that finished early until the pages before it have gone, and says when the last one has', () => {
    const delivered: number[] = [];
    const order = createPageOrder((p) => delivered.push(p.pageNumber));
    order.infoDelivered();
    order.add(page(3));
    order.add(page(2));
    expect(order.deliver(3)).toBe(false);
    expect(delivered).toEqual([]);
    order.add(page(1));
    expect(order.deliver(3)).toBe(true);
    expect(delivered).toEqual([1, 2, 3]);
  });

  it('hands each page over once', () => {
    const delivered: number[] = [];
    const order = createPageOrder((p) => delivered.push(p.pageNumber));
    order.infoDelivered();
    order.add(page(1));
    order.deliver(3);
    order.deliver(3);
    order.add(page(2));
    order.deliver(3);
    expect(delivered).toEqual([1, 2]);
  });
});
