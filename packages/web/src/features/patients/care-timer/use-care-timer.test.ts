import { CARE_TIMER_IDLE_MS, CARE_TIMER_RESUME_MS, CARE_TIMER_STORAGE_PREFIX, CareTimerTexts } from '@rpm/contracts';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCareTimer } from './use-care-timer.ts';

/** A fixed day, so nothing here depends on today's date. */
const T0 = new Date('2026-11-03T14:00:00Z').getTime();
const USER = 7;

/** A document whose visibility the test sets, as a browser tab's. */
function tab(doc: Document = document) {
  let state: DocumentVisibilityState = 'visible';
  Object.defineProperty(doc, 'visibilityState', { configurable: true, get: () => state });
  return {
    doc,
    show: () => {
      state = 'visible';
      act(() => void doc.dispatchEvent(new Event('visibilitychange')));
    },
    hide: () => {
      state = 'hidden';
      act(() => void doc.dispatchEvent(new Event('visibilitychange')));
    },
  };
}

const advance = (ms: number) => act(() => void vi.advanceTimersByTime(ms));
const timerOn = (patientId: number, opts: { autoStart?: boolean; doc?: Document } = {}) =>
  renderHook(() => useCareTimer({ userId: USER, patientId, autoStart: opts.autoStart ?? true, doc: opts.doc }));
const stored = () => Object.keys(localStorage).filter((k) => k.startsWith(CARE_TIMER_STORAGE_PREFIX));

beforeEach(() => {
  localStorage.clear();
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(T0);
  tab();
});
afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

describe('care timer', () => {
  it('starts on opening when told to, and counts wall-clock seconds', () => {
    const { result } = timerOn(1);
    expect(result.current.status).toBe('running');
    expect(result.current.announcement).toBe(CareTimerTexts.announceStarted);
    advance(42_000);
    expect(result.current.elapsedMs).toBe(42_000);
  });

  it('opened in a background tab, starts when the tab is first shown', () => {
    const page = tab();
    page.hide();
    const { result } = timerOn(1);
    advance(30_000);
    expect(result.current).toMatchObject({ status: 'stopped', elapsedMs: 0 });
    page.show();
    advance(4000);
    expect(result.current).toMatchObject({ status: 'running', elapsedMs: 4000 });
  });

  it('starts only on a click otherwise', () => {
    const { result } = timerOn(1, { autoStart: false });
    advance(10_000);
    expect(result.current).toMatchObject({ status: 'stopped', elapsedMs: 0 });
    act(() => result.current.start());
    advance(10_000);
    expect(result.current).toMatchObject({ status: 'running', elapsedMs: 10_000 });
  });

  it('pauses after exactly 2 minutes without activity (1:59 still counts), and goes on with activity', () => {
    const { result } = timerOn(1);
    advance(CARE_TIMER_IDLE_MS - 1000);
    expect(result.current).toMatchObject({ status: 'running', elapsedMs: 119_000 });
    advance(1000);
    expect(result.current).toMatchObject({ status: 'paused', reason: 'idle', elapsedMs: 120_000 });
    expect(result.current.announcement).toBe(CareTimerTexts.announcePaused);
    advance(5 * 60_000);
    expect(result.current.elapsedMs).toBe(120_000);

    // The idle sign-out's own signals resume it.
    act(() => void document.dispatchEvent(new KeyboardEvent('keydown')));
    expect(result.current).toMatchObject({ status: 'running', announcement: CareTimerTexts.announceResumed });
    advance(30_000);
    expect(result.current.elapsedMs).toBe(150_000);
  });

  it('counts the idle window from the last activity', () => {
    const { result } = timerOn(1);
    advance(60_000);
    act(() => void document.dispatchEvent(new MouseEvent('mousemove')));
    advance(CARE_TIMER_IDLE_MS - 1000);
    expect(result.current.status).toBe('running');
    advance(1000);
    expect(result.current).toMatchObject({ status: 'paused', elapsedMs: 60_000 + CARE_TIMER_IDLE_MS });
  });

  it('pauses while the page is hidden and goes on when it is shown', () => {
    const page = tab();
    const { result } = timerOn(1);
    advance(20_000);
    page.hide();
    expect(result.current).toMatchObject({ status: 'paused', reason: 'hidden', elapsedMs: 20_000 });
    advance(10 * 60_000);
    expect(result.current.elapsedMs).toBe(20_000);
    page.show();
    advance(5000);
    expect(result.current).toMatchObject({ status: 'running', elapsedMs: 25_000 });
  });

  it('stays paused when the person paused it, whatever the activity', () => {
    const { result } = timerOn(1);
    advance(5000);
    act(() => result.current.pause());
    act(() => void document.dispatchEvent(new MouseEvent('click')));
    advance(60_000);
    expect(result.current).toMatchObject({ status: 'paused', reason: 'user', elapsedMs: 5000 });
  });

  it('survives a reload: a new instance reads the time from storage and counts on', () => {
    const first = timerOn(1);
    advance(75_000);
    act(() => void window.dispatchEvent(new Event('pagehide')));
    first.unmount();
    advance(3000);
    const second = timerOn(1);
    expect(second.result.current).toMatchObject({ status: 'running', elapsedMs: 75_000 });
    advance(5000);
    expect(second.result.current.elapsedMs).toBe(80_000);
    // Only numbers under the user's and patient's key.
    expect(stored()).toEqual([`${CARE_TIMER_STORAGE_PREFIX}${USER}.1`]);
    expect(Object.values(JSON.parse(localStorage.getItem(stored()[0]!)!)).every((v) => typeof v === 'number')).toBe(true);
  });

  it('keeps a paused timer paused across a reload', () => {
    const first = timerOn(1);
    advance(10_000);
    act(() => first.result.current.pause());
    first.unmount();
    const second = timerOn(1);
    expect(second.result.current).toMatchObject({ status: 'paused', reason: 'user', elapsedMs: 10_000 });
  });

  it('runs two timers for two patients in two tabs; only the visible one counts', () => {
    const a = tab(document.implementation.createHTMLDocument('patient 1'));
    const b = tab(document.implementation.createHTMLDocument('patient 2'));
    b.hide();
    const one = timerOn(1, { doc: a.doc });
    const two = timerOn(2, { doc: b.doc });
    expect(two.result.current.status).toBe('stopped');
    advance(30_000);
    // The person switches to the second tab: its timer starts, the first one's pauses.
    a.hide();
    b.show();
    act(() => two.result.current.start());
    advance(60_000);
    expect(one.result.current).toMatchObject({ status: 'paused', elapsedMs: 30_000 });
    expect(two.result.current).toMatchObject({ status: 'running', elapsedMs: 60_000 });
    // And back.
    b.hide();
    a.show();
    advance(10_000);
    expect(one.result.current).toMatchObject({ status: 'running', elapsedMs: 40_000 });
    expect(two.result.current).toMatchObject({ status: 'paused', elapsedMs: 60_000 });
    expect(stored().sort()).toEqual([`${CARE_TIMER_STORAGE_PREFIX}${USER}.1`, `${CARE_TIMER_STORAGE_PREFIX}${USER}.2`]);
  });

  it('keeps the time of a page closed while counting as a draft, shown on the next visit, per user', () => {
    const first = timerOn(1);
    advance(100_000);
    act(() => void window.dispatchEvent(new Event('pagehide')));
    first.unmount();
    const closedAt = Date.now();
    advance(CARE_TIMER_RESUME_MS + 60 * 60_000);

    const other = renderHook(() => useCareTimer({ userId: USER + 1, patientId: 1, autoStart: false }));
    expect(other.result.current.draft).toBeNull();
    other.unmount();

    const next = timerOn(1, { autoStart: false });
    expect(next.result.current.draft).toEqual({ ms: 100_000, at: closedAt });
    // The new visit starts from zero; the draft waits for Log or Discard.
    expect(next.result.current).toMatchObject({ status: 'stopped', elapsedMs: 0 });
    next.unmount();
    const again = timerOn(1, { autoStart: false });
    expect(again.result.current.draft).toEqual({ ms: 100_000, at: closedAt });
    act(() => again.result.current.discardDraft());
    expect(again.result.current.draft).toBeNull();
    expect(stored()).toEqual([]);
  });

  it('a timer stopped while idle stays stopped on activity', () => {
    const { result } = timerOn(1);
    advance(CARE_TIMER_IDLE_MS + 10_000);
    expect(result.current.reason).toBe('idle');
    act(() => void result.current.stop());
    act(() => void document.dispatchEvent(new KeyboardEvent('keydown')));
    expect(result.current).toMatchObject({ status: 'paused', reason: 'user', elapsedMs: CARE_TIMER_IDLE_MS });
  });

  it('stop pauses and says what was counted; finish (after the entry is saved) goes back to zero', () => {
    const { result } = timerOn(1);
    advance(95_000);
    let ms = 0;
    act(() => {
      ms = result.current.stop();
    });
    expect(ms).toBe(95_000);
    expect(result.current).toMatchObject({ status: 'paused', announcement: CareTimerTexts.announceStopped });
    // Activity while the dialog is open does not restart it.
    act(() => void document.dispatchEvent(new MouseEvent('mousemove')));
    advance(5000);
    expect(result.current).toMatchObject({ status: 'paused', reason: 'user', elapsedMs: 95_000 });
    act(() => result.current.finish());
    expect(result.current).toMatchObject({ status: 'stopped', elapsedMs: 0 });
    expect(stored()).toEqual([]);
  });
});
