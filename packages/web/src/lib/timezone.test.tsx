import { TIMEZONE_STORAGE_KEY } from '@rpm/contracts';
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { browserTimezone, listTimezones, useTimezone } from './timezone.ts';

describe('useTimezone', () => {
  it("defaults to the browser's zone", () => {
    const { result } = renderHook(() => useTimezone());
    expect(result.current.timezone).toBe(browserTimezone());
  });

  it('keeps the choice in localStorage and re-renders every user of the hook', () => {
    const a = renderHook(() => useTimezone());
    const b = renderHook(() => useTimezone());
    act(() => a.result.current.setTimezone('America/New_York'));
    expect(localStorage.getItem(TIMEZONE_STORAGE_KEY)).toBe('America/New_York');
    expect(b.result.current.timezone).toBe('America/New_York');
  });

  it('ignores a stored value that is not a real zone, and refuses to store one', () => {
    localStorage.setItem(TIMEZONE_STORAGE_KEY, 'Mars/Olympus_Mons');
    const { result } = renderHook(() => useTimezone());
    expect(result.current.timezone).toBe(browserTimezone());
    act(() => result.current.setTimezone('Not/AZone'));
    expect(localStorage.getItem(TIMEZONE_STORAGE_KEY)).toBe('Mars/Olympus_Mons');
  });

  it('offers the IANA zones with UTC first', () => {
    const zones = listTimezones();
    expect(zones[0]).toBe('UTC');
    expect(zones).toContain('Europe/Berlin');
    expect(new Set(zones).size).toBe(zones.length);
  });
});
