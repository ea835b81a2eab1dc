/** Time, injectable: timed work (transfer expiry) and timestamps read it, so tests can move it forward. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

/** The system's time plus an offset that only grows: the clock of a test-mode process whose tests move time on. */
export class AdvancingClock implements Clock {
  #offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.#offsetMs);
  }
  advance(milliseconds: number): void {
    this.#offsetMs += milliseconds;
  }
}
