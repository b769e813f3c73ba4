import { CARE_TIMER_STORAGE_PREFIX } from '@rpm/contracts';

/**
 * Where the care timer keeps its state between pages, reloads and visits: localStorage, one key
 * per user and patient (CARE_TIMER_STORAGE_PREFIX, the user's id, the patient's id). Only numbers
 * are stored, never a name or a note. Sign-out removes every key of the prefix.
 */

/** A timer as last seen: counted milliseconds up to `at`, and whether it was counting then. */
export interface StoredTimer {
  /** Milliseconds counted up to `at`. */
  acc: number;
  /** 1: counting at `at`. */
  run: 0 | 1;
  /** 1: paused by the person (activity does not resume it). */
  held: 0 | 1;
  /** When this was written (epoch ms). */
  at: number;
}

/** Time counted on a visit that ended without logging it. */
export interface StoredDraft {
  ms: number;
  /** When the time was last counted (epoch ms): the entry's day. */
  at: number;
}

const timerKey = (userId: number, patientId: number) => `${CARE_TIMER_STORAGE_PREFIX}${userId}.${patientId}`;
const draftKey = (userId: number, patientId: number) => `${timerKey(userId, patientId)}.draft`;

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isFlag = (v: unknown): v is 0 | 1 => v === 0 || v === 1;

function read(key: string): Record<string, unknown> | null {
  try {
    const raw = localStorage.getItem(key);
    const value: unknown = raw === null ? null : JSON.parse(raw);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function write(key: string, value: StoredTimer | StoredDraft | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or refused (private mode): the timer still counts on this page.
  }
}

export function readTimer(userId: number, patientId: number): StoredTimer | null {
  const v = read(timerKey(userId, patientId));
  if (!v || !isCount(v.acc) || !isFlag(v.run) || !isFlag(v.held) || !isCount(v.at)) return null;
  return { acc: v.acc, run: v.run, held: v.held, at: v.at };
}

export const writeTimer = (userId: number, patientId: number, timer: StoredTimer | null) =>
  write(timerKey(userId, patientId), timer);

export function readDraft(userId: number, patientId: number): StoredDraft | null {
  const v = read(draftKey(userId, patientId));
  return v && isCount(v.ms) && isCount(v.at) && v.ms > 0 ? { ms: v.ms, at: v.at } : null;
}

/** Keeps unlogged time; time already waiting is added to it and keeps its (earlier) day. */
export function addDraft(userId: number, patientId: number, ms: number, at: number): StoredDraft {
  const before = readDraft(userId, patientId);
  const draft = before ? { ms: before.ms + ms, at: before.at } : { ms, at };
  write(draftKey(userId, patientId), draft);
  return draft;
}

export const clearDraft = (userId: number, patientId: number) => write(draftKey(userId, patientId), null);
