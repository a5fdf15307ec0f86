import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { listMethods } from './listApi';
import {
  fromPreference,
  preferenceName,
  preferenceStorageKey,
  toPreference,
  type ListState,
} from './listState';
import { useCustomMethods } from './useCustomMethods';

const fallback = listMethods();
type Saved = Partial<Pick<ListState, 'filters' | 'q' | 'toggle'>>;

/**
 * Applied filters remembered per list (spec 3 section 3's preference record): written to local storage at once
 * and to the user-preferences API (name "filters.{list}") after a pause; read from local storage first, from
 * the API when this browser has none. `enabled` false turns it off.
 */
export function useListPreference(list: string, enabled: boolean, onLoaded: (saved: Saved) => void) {
  const methods = useCustomMethods(fallback);
  const key = preferenceStorageKey(list);
  const initial = useMemo<Saved>(() => {
    if (!enabled) return {};
    try {
      return fromPreference(localStorage.getItem(key));
    } catch {
      return {};
    }
  }, [enabled, key]);
  const hadLocal = useMemo(() => enabled && localStorage.getItem(key) !== null, [enabled, key]);
  const last = useRef<string | null>(enabled ? localStorage.getItem(key) : null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // without a local copy the list waits for the API's answer (or its failure) before its first fetch
  const [ready, setReady] = useState(!enabled || hadLocal);
  const loadedRef = useRef(onLoaded);
  loadedRef.current = onLoaded;

  useEffect(() => {
    if (!enabled || hadLocal) return;
    let cancelled = false;
    methods
      .getPreference({ name: preferenceName(list) })
      .then(({ data }) => {
        if (cancelled) return;
        if (data?.content) {
          const text = JSON.stringify(data.content);
          localStorage.setItem(key, text);
          last.current = text;
          loadedRef.current(fromPreference(data.content));
        }
        setReady(true); // in the same tick as the restored filters, so the first fetch already has them
      })
      .catch(() => !cancelled && setReady(true)); // no remembered filters is not an error
    return () => {
      cancelled = true;
    };
  }, [enabled, hadLocal, key, list, methods]);

  // a change still waiting for its pause is sent at once when the list unmounts or the page is hidden
  // (navigating away, closing the tab), so the server's copy is never older than the last applied filters
  const pending = useRef<(() => void) | null>(null);
  const flush = useCallback(() => {
    clearTimeout(timer.current);
    const send = pending.current;
    pending.current = null;
    send?.();
  }, []);
  useEffect(() => {
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [flush]);

  const save = useCallback(
    (state: Pick<ListState, 'filters' | 'q' | 'toggle'>) => {
      if (!enabled || !ready) return;
      const content = toPreference(state);
      const text = JSON.stringify(content);
      if (text === last.current) return;
      last.current = text;
      localStorage.setItem(key, text);
      clearTimeout(timer.current);
      pending.current = () => {
        methods.savePreference({ name: preferenceName(list), content }).catch(() => undefined);
      };
      timer.current = setTimeout(flush, 1500);
    },
    [enabled, ready, key, list, methods, flush],
  );

  return { initial, save, ready };
}
