import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * Changes some of the address' query parameters: an undefined or empty value (or page 0) removes
 * one, and any change but the page itself goes back to the first page. `replace` keeps the
 * history as it is (a search box typing), otherwise each change is one Back step.
 */
export function useSearchParamsUpdate({ replace }: { replace: boolean }) {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (changes: Record<string, string | number | undefined>) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(changes)) {
            if (v === undefined || v === '' || (k === 'page' && v === 0)) next.delete(k);
            else next.set(k, String(v));
          }
          if (!('page' in changes)) next.delete('page');
          return next;
        },
        { replace },
      ),
    [setParams, replace],
  );
  return [params, update] as const;
}
