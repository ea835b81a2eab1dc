/** Time, injectable: timed work (transfer expiry) and timestamps read it, so tests can move it forward. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };
