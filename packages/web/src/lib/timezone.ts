import { TIMEZONE_STORAGE_KEY } from '@rpm/contracts';
import { useCallback, useSyncExternalStore } from 'react';

/*
 * Building an Intl.DateTimeFormat costs about a millisecond, and React asks for the zone on every
 * render of every component that shows a time (useSyncExternalStore reads it each render): the
 * answers are remembered. The browser's zone is read once per page load.
 */
let ownZone: string | null = null;

/** The browser's own zone, the default until the user picks another one. */
export function browserTimezone(): string {
  ownZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  return ownZone;
}

let zones: string[] | null = null;
/** Every IANA zone the browser knows, with UTC first. */
export function listTimezones(): string[] {
  if (!zones) {
    const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    zones = ['UTC', ...all.filter((z) => z !== 'UTC')];
    const own = browserTimezone();
    if (!zones.includes(own)) zones.push(own);
  }
  return zones;
}

const knownZones = new Map<string, boolean>();
function isKnownZone(zone: string): boolean {
  let known = knownZones.get(zone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      known = true;
    } catch {
      known = false;
    }
    knownZones.set(zone, known);
  }
  return known;
}

/** The chosen zone: the stored preference when it is a real zone, else the browser's. */
export function getTimezone(): string {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(TIMEZONE_STORAGE_KEY);
  } catch {
    /* storage blocked: fall back to the browser's zone */
  }
  return stored && isKnownZone(stored) ? stored : browserTimezone();
}

const listeners = new Set<() => void>();
function notify() {
  for (const l of listeners) l();
}

export function setTimezone(zone: string): void {
  if (!isKnownZone(zone)) return;
  try {
    localStorage.setItem(TIMEZONE_STORAGE_KEY, zone);
  } catch {
    /* storage blocked: the choice lasts until reload */
  }
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab changing the preference changes it here too.
  const onStorage = (e: StorageEvent) => {
    if (e.key === TIMEZONE_STORAGE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/**
 * The time zone every time on screen is shown in (spec section 3: stored locally, defaulting to
 * the browser's). Components re-render when it changes, in this tab or another.
 */
export function useTimezone(): { timezone: string; setTimezone: (zone: string) => void } {
  const timezone = useSyncExternalStore(subscribe, getTimezone, getTimezone);
  const set = useCallback((zone: string) => setTimezone(zone), []);
  return { timezone, setTimezone: set };
}
