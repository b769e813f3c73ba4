/*
 * Toasts without notistack on the first load: notistack (about 8 kB compressed) is fetched once
 * the first page has rendered and mounted with the first toast (see ToastHost); a toast asked for
 * before then waits for it.
 */
export type ToastVariant = 'default' | 'success' | 'error' | 'info' | 'warning';
type Show = (message: string, options?: { variant?: ToastVariant }) => void;

let show: Show | null = null;
const waiting: Array<Parameters<Show>> = [];
let wantHost: (() => void) | null = null;

export function enqueueSnackbar(message: string, options?: { variant?: ToastVariant }): void {
  if (show) {
    show(message, options);
    return;
  }
  waiting.push([message, options]);
  wantHost?.();
}

/** The same call shape as notistack's hook, so pages read as before. */
export function useSnackbar() {
  return { enqueueSnackbar };
}

/** Called by the toaster once notistack is mounted: shows what waited. */
export function attachToaster(next: Show | null): void {
  show = next;
  if (next) for (const args of waiting.splice(0)) next(...args);
}

/** Called by ToastHost: how to ask it to load the toaster now. */
export function onToastWanted(listener: (() => void) | null): boolean {
  wantHost = listener;
  return waiting.length > 0;
}
