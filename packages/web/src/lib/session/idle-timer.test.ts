import { IDLE_TIMEOUT_MS } from '@rpm/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleTimer } from './idle-timer.ts';

describe('IdleTimer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires once after the timeout without activity, not before', () => {
    const onIdle = vi.fn();
    const timer = new IdleTimer({ timeoutMs: IDLE_TIMEOUT_MS, onIdle });
    timer.start();
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS - 2000);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2000);
    expect(onIdle).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS * 2);
    expect(onIdle).toHaveBeenCalledTimes(1);
    expect(timer.running).toBe(false);
  });

  it('restarts the full timeout on activity', () => {
    const onIdle = vi.fn();
    const timer = new IdleTimer({ timeoutMs: IDLE_TIMEOUT_MS, onIdle });
    timer.start();
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS - 60_000);
    timer.activity();
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS - 60_000);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(60_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('takes activity seen elsewhere at its own time, and never pulls the deadline in', () => {
    const onIdle = vi.fn();
    const timer = new IdleTimer({ timeoutMs: IDLE_TIMEOUT_MS, onIdle });
    timer.start();
    const started = Date.now();
    vi.advanceTimersByTime(10 * 60_000);
    timer.activity(started + 9 * 60_000);
    expect(timer.msLeft).toBe(IDLE_TIMEOUT_MS - 60_000);
    timer.activity(started);
    expect(timer.msLeft).toBe(IDLE_TIMEOUT_MS - 60_000);
  });

  it('notices a deadline that passed while timers were not running (clock jump)', () => {
    const onIdle = vi.fn();
    const timer = new IdleTimer({ timeoutMs: IDLE_TIMEOUT_MS, onIdle, checkEveryMs: 60_000 });
    timer.start();
    vi.setSystemTime(Date.now() + IDLE_TIMEOUT_MS + 1);
    timer.check();
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('does nothing after stop()', () => {
    const onIdle = vi.fn();
    const timer = new IdleTimer({ timeoutMs: 1000, onIdle });
    timer.start();
    timer.stop();
    vi.advanceTimersByTime(5000);
    expect(onIdle).not.toHaveBeenCalled();
  });
});
