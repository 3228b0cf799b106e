/** The time source, behind a port so that tests and jobs can use a fixed or shifted clock. */
export interface Clock {
  now(): Date;
  /** The same instant as milliseconds since the epoch, without a Date (read on every request). */
  epochMs(): number;
}

export const systemClock: Clock = { now: () => new Date(), epochMs: () => Date.now() };

export function fixedClock(at: Date | string): Clock & { set(at: Date | string): void; advance(ms: number): void } {
  let current = new Date(at);
  return {
    now: () => new Date(current),
    epochMs: () => current.getTime(),
    set: (next) => {
      current = new Date(next);
    },
    advance: (ms) => {
      current = new Date(current.getTime() + ms);
    },
  };
}
