export interface IdleTimerOptions {
  timeoutMs: number;
  onIdle: () => void;
  /** How often the deadline is checked; the timeout is exact to within this. */
  checkEveryMs?: number;
}

/**
 * Fires `onIdle` once when `timeoutMs` pass without `activity()`. The deadline is a wall-clock
 * time compared with Date.now() on each check, not one long setTimeout: browsers delay timers in
 * background tabs and a sleeping laptop pauses them, but the clock keeps going. It also lets a
 * test that controls the clock jump past the deadline.
 */
export class IdleTimer {
  private deadline = 0;
  private handle: ReturnType<typeof setInterval> | null = null;
  private readonly checkEveryMs: number;

  constructor(private readonly options: IdleTimerOptions) {
    this.checkEveryMs = options.checkEveryMs ?? 1000;
  }

  start(): void {
    this.stop();
    this.deadline = Date.now() + this.options.timeoutMs;
    this.handle = setInterval(() => this.check(), this.checkEveryMs);
  }

  /** Activity at `at` (now by default, or the time another tab saw it) pushes the deadline out. */
  activity(at: number = Date.now()): void {
    if (!this.running) return;
    this.deadline = Math.max(this.deadline, at + this.options.timeoutMs);
  }

  /** Checks at once, e.g. when a hidden tab becomes visible again. */
  check(): void {
    if (!this.running) return;
    if (Date.now() >= this.deadline) {
      this.stop();
      this.options.onIdle();
    }
  }

  get running(): boolean {
    return this.handle !== null;
  }

  get msLeft(): number {
    return Math.max(0, this.deadline - Date.now());
  }

  stop(): void {
    if (this.handle !== null) clearInterval(this.handle);
    this.handle = null;
  }
}
