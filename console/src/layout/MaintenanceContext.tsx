import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { dataProvider, type MaintenanceWindow } from '../providers/dataProvider';
import { MAINTENANCE_REFRESH_MS, maintenanceState, type MaintenanceState } from './maintenance';

const MaintenanceContext = createContext<MaintenanceState & { loaded: boolean; reload: () => void }>({
  active: null,
  upcoming: null,
  loaded: false,
  reload: () => undefined,
});

/**
 * The maintenance windows (public GET, so the login page has them before anyone signs in), fetched at start,
 * every 15 seconds, whenever the tab becomes visible again (a user coming back sees the current state at once)
 * and when asked (`reload`: an administrator who scheduled or cancelled a window sees the banner follow at
 * once); the banner and the maintenance screen read the state computed from them.
 */
export function MaintenanceProvider({ children }: { children: ReactNode }) {
  const [windows, setWindows] = useState<MaintenanceWindow[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const reloadRef = useRef<() => void>(() => undefined);

  useEffect(() => {
    let stopped = false;
    const load = () =>
      dataProvider
        .getMaintenance()
        .then(({ data }) => {
          if (!stopped) setWindows(data);
        })
        .catch(() => undefined)
        .finally(() => {
          if (!stopped) {
            setLoaded(true);
            setNow(Date.now());
          }
        });
    void load();
    reloadRef.current = () => void load();
    const onVisible = () => {
      if (document.visibilityState === 'visible') void load();
    };
    document.addEventListener('visibilitychange', onVisible);
    const timer = setInterval(load, MAINTENANCE_REFRESH_MS);
    // a window may begin between two fetches: recompute each second against the windows we have
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => {
      stopped = true;
      document.removeEventListener('visibilitychange', onVisible);
      clearInterval(timer);
      clearInterval(tick);
    };
  }, []);

  const state = useMemo(() => maintenanceState(windows, now), [windows, now]);
  const value = useMemo(
    () => ({ ...state, loaded, reload: () => reloadRef.current() }),
    [state.active?.id, state.upcoming?.id, loaded],
  );
  return <MaintenanceContext.Provider value={value}>{children}</MaintenanceContext.Provider>;
}

export const useMaintenance = () => useContext(MaintenanceContext);
