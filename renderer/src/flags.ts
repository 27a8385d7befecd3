/** `?novirtual=1` renders long lists in full: the benchmark's baseline. */
export const VIRTUALIZE = !new URLSearchParams(window.location.search).has('novirtual');
