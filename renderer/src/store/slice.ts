/**
 * What every slice of the store is made of (zustand's slices pattern): a slice
 * is one named object of the store, its state and its actions together, made
 * by a creator that sees the whole store. Slices read each other through
 * `get()` of the one store, so there is one place where the state lives.
 */
import type { StateCreator, StoreApi } from 'zustand';
import type { Store } from '.';

export type SliceCreator<Name extends keyof Store> = StateCreator<Store, [], [], Pick<Store, Name>>;

export type SetStore = StoreApi<Store>['setState'];
export type GetStore = StoreApi<Store>['getState'];

/** Sets some fields of one slice, keeping the rest of it (its actions too). */
export function patcher<Name extends keyof Store>(set: SetStore, name: Name) {
  return (patch: Partial<Store[Name]> | ((slice: Store[Name]) => Partial<Store[Name]>)): void =>
    set((store) => ({ [name]: { ...store[name], ...(typeof patch === 'function' ? patch(store[name]) : patch) } }) as Partial<Store>);
}
