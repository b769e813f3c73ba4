import { ACTIVITY_EVENTS, CARE_TIMER_IDLE_MS, CARE_TIMER_RESUME_MS, CareTimerTexts } from '@rpm/contracts';
import { useEffect, useState } from 'react';
import { addDraft, clearDraft, readDraft, readTimer, writeTimer, type StoredDraft } from './storage.ts';

export type CareTimerStatus = 'stopped' | 'running' | 'paused';
/** Why a paused timer is paused: the person, a hidden page, or no activity for CARE_TIMER_IDLE_MS. */
export type PauseReason = 'user' | 'hidden' | 'idle';

export interface CareTimerSnapshot {
  status: CareTimerStatus;
  reason: PauseReason | null;
  elapsedMs: number;
  /** What a screen reader is told: changes on start, pause, resume and stop only. */
  announcement: string;
  /** Time of an earlier visit that was not logged. */
  draft: StoredDraft | null;
}

/** How often the display and the idle check run. */
export const CARE_TIMER_TICK_MS = 1000;

/**
 * The care timer of one user on one patient's page. Counts wall-clock time (Date.now()), so a
 * delayed interval in a background tab or a test's fake clock measures the same. Pauses when its
 * document is hidden and when CARE_TIMER_IDLE_MS pass without the idle sign-out's activity
 * events (the time up to that moment counts: a person reading a chart moves nothing), and goes
 * on with activity (or the page shown again) unless the person paused it.
 *
 * Its state is written to storage while it is shown, when hidden, and when the page goes away.
 * Found again within CARE_TIMER_RESUME_MS (a reload, another section or page of the portal) it
 * goes on; found later, the time counted is kept as a draft, offered to be logged or discarded.
 */
export class CareTimerClock {
  private acc = 0;
  private since: number | null = null;
  private reason: PauseReason | null = null;
  private lastActivity = Date.now();
  private announcement = '';
  private draft: StoredDraft | null = null;
  private autoStarted = false;
  private startWhenShown = false;
  private snapshot: CareTimerSnapshot;
  private readonly listeners = new Set<() => void>();
  private readonly handle: ReturnType<typeof setInterval>;
  private readonly view: Window | null;

  constructor(
    private readonly userId: number,
    private readonly patientId: number,
    private readonly doc: Document = document,
  ) {
    this.view = doc.defaultView;
    this.load();
    this.snapshot = this.takeSnapshot();
    for (const name of ACTIVITY_EVENTS) doc.addEventListener(name, this.onActivity, { capture: true, passive: true });
    doc.addEventListener('visibilitychange', this.onVisibility);
    this.view?.addEventListener('pagehide', this.onPageHide);
    this.handle = setInterval(this.tick, CARE_TIMER_TICK_MS);
  }

  private get visible(): boolean {
    return this.doc.visibilityState !== 'hidden';
  }

  private load(): void {
    const now = Date.now();
    this.draft = readDraft(this.userId, this.patientId);
    const stored = readTimer(this.userId, this.patientId);
    if (!stored) return;
    if (now - stored.at > CARE_TIMER_RESUME_MS) {
      // An earlier visit's time: waiting to be logged, not counted on.
      if (stored.acc > 0) this.draft = addDraft(this.userId, this.patientId, stored.acc, stored.at);
      writeTimer(this.userId, this.patientId, null);
      return;
    }
    // Back within moments (a reload, another section): the gap itself is not counted. A timer
    // that was counting, or paused by a hidden page or idleness, counts on (opening is activity);
    // one the person paused stays paused.
    this.acc = stored.acc;
    if (stored.held) this.reason = 'user';
    else if (stored.run === 0 && stored.acc === 0) return;
    else if (this.visible) this.since = now;
    else this.reason = 'hidden';
  }

  /** Milliseconds counted so far. */
  elapsed(now = Date.now()): number {
    return this.acc + (this.since === null ? 0 : Math.max(0, now - this.since));
  }

  private get status(): CareTimerStatus {
    if (this.since !== null) return 'running';
    return this.reason === null ? 'stopped' : 'paused';
  }

  private takeSnapshot(): CareTimerSnapshot {
    return {
      status: this.status,
      reason: this.reason,
      elapsedMs: this.elapsed(),
      announcement: this.announcement,
      draft: this.draft,
    };
  }

  getSnapshot = (): CareTimerSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private emit(): void {
    this.snapshot = this.takeSnapshot();
    for (const listener of this.listeners) listener();
  }

  /**
   * Writes the state for the next visit. `refresh` only updates a record that exists: one that is
   * gone was removed by a sign-out, and a page about to close must not bring it back.
   */
  private persist(now = Date.now(), refresh = false): void {
    if (refresh && readTimer(this.userId, this.patientId) === null) return;
    const acc = this.elapsed(now);
    const timer =
      this.status === 'stopped' && acc === 0
        ? null
        : { acc, run: this.since === null ? 0 : 1, held: this.reason === 'user' ? 1 : 0, at: now } as const;
    writeTimer(this.userId, this.patientId, timer);
  }

  private run(now: number, announcement: string): void {
    this.since = now;
    this.reason = null;
    this.lastActivity = now;
    this.announcement = announcement;
    this.persist(now);
    this.emit();
  }

  private halt(at: number, reason: PauseReason): void {
    if (this.since === null) return;
    this.acc = this.elapsed(at);
    this.since = null;
    this.reason = reason;
    this.announcement = CareTimerTexts.announcePaused;
    this.persist(Math.max(at, Date.now()));
    this.emit();
  }

  start(): void {
    if (this.since !== null) return;
    this.run(Date.now(), this.status === 'stopped' ? CareTimerTexts.announceStarted : CareTimerTexts.announceResumed);
  }

  /**
   * Starts once for a fresh visit when the organization starts the timer on opening the record;
   * a record opened in a background tab starts when the tab is first shown.
   */
  autoStart(): void {
    if (this.autoStarted) return;
    if (!this.visible) {
      this.startWhenShown = true;
      return;
    }
    this.autoStarted = true;
    if (this.status === 'stopped') this.start();
  }

  pause(): void {
    this.halt(Date.now(), 'user');
  }

  /** Pauses (as the person would) and says how long was counted: the dialog logs it, or not. */
  stop(): number {
    this.pause();
    // Paused by idleness or a hidden page before: held now, so that activity does not restart a
    // timer whose time is in the dialog (Cancel leaves it paused).
    if (this.reason !== null) this.reason = 'user';
    this.announcement = CareTimerTexts.announceStopped;
    this.persist();
    this.emit();
    return this.acc;
  }

  /** The counted time was logged: back to zero. */
  finish(): void {
    this.acc = 0;
    this.since = null;
    this.reason = null;
    writeTimer(this.userId, this.patientId, null);
    this.emit();
  }

  discardDraft(): void {
    clearDraft(this.userId, this.patientId);
    this.draft = null;
    this.emit();
  }

  private tick = (): void => {
    const now = Date.now();
    if (this.since !== null && now - this.lastActivity >= CARE_TIMER_IDLE_MS) {
      this.halt(this.lastActivity + CARE_TIMER_IDLE_MS, 'idle');
      return;
    }
    // Written while shown, so that a reload finds it fresh (a hidden page wrote it when hidden).
    if (this.visible && this.status !== 'stopped') this.persist(now, true);
    if (this.since !== null) this.emit();
  };

  private onActivity = (): void => {
    const now = Date.now();
    // A tick may be late (a busy or throttled page): idle time before this activity is not counted.
    if (this.since !== null && now - this.lastActivity >= CARE_TIMER_IDLE_MS) {
      this.halt(this.lastActivity + CARE_TIMER_IDLE_MS, 'idle');
    }
    this.lastActivity = now;
    if (this.reason === 'idle' && this.visible) this.run(now, CareTimerTexts.announceResumed);
  };

  private onVisibility = (): void => {
    const now = Date.now();
    if (!this.visible) {
      this.halt(now, 'hidden');
      return;
    }
    this.lastActivity = now;
    if (this.reason === 'hidden' || this.reason === 'idle') this.run(now, CareTimerTexts.announceResumed);
    else if (this.startWhenShown) {
      this.startWhenShown = false;
      this.autoStart();
    }
  };

  /** Closing or reloading: written with the moment, which tells the next visit how long ago it was. */
  private onPageHide = (): void => {
    this.persist(Date.now(), true);
  };

  /** The page is left: the state is written for the next visit, then nothing listens. */
  dispose(): void {
    clearInterval(this.handle);
    for (const name of ACTIVITY_EVENTS) this.doc.removeEventListener(name, this.onActivity, { capture: true });
    this.doc.removeEventListener('visibilitychange', this.onVisibility);
    this.view?.removeEventListener('pagehide', this.onPageHide);
    // Running when left: written as counting, so a quick return (a reload) goes on counting.
    this.persist(Date.now(), true);
    this.listeners.clear();
  }
}

export interface CareTimer extends CareTimerSnapshot {
  start(): void;
  pause(): void;
  stop(): number;
  finish(): void;
  discardDraft(): void;
}

/**
 * The care timer of `userId` on `patientId`'s page (see CareTimerClock). `autoStart` starts it
 * once for a fresh visit; `doc` is the page's document (tests give each "tab" its own).
 */
export function useCareTimer({
  userId,
  patientId,
  autoStart,
  doc,
}: {
  userId: number;
  patientId: number;
  autoStart: boolean;
  doc?: Document;
}): CareTimer {
  const [clock, setClock] = useState<CareTimerClock | null>(null);
  const [snapshot, setSnapshot] = useState<CareTimerSnapshot | null>(null);

  useEffect(() => {
    const c = new CareTimerClock(userId, patientId, doc);
    setClock(c);
    setSnapshot(c.getSnapshot());
    const unsubscribe = c.subscribe(() => setSnapshot(c.getSnapshot()));
    return () => {
      unsubscribe();
      c.dispose();
    };
  }, [userId, patientId, doc]);

  useEffect(() => {
    if (autoStart) clock?.autoStart();
  }, [autoStart, clock]);

  const s = snapshot ?? { status: 'stopped', reason: null, elapsedMs: 0, announcement: '', draft: null };
  return {
    ...s,
    start: () => clock?.start(),
    pause: () => clock?.pause(),
    stop: () => clock?.stop() ?? 0,
    finish: () => clock?.finish(),
    discardDraft: () => clock?.discardDraft(),
  };
}
