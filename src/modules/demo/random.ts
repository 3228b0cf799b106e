/**
 * A small seeded pseudo-random generator (mulberry32): the same seed gives the same sequence on every
 * machine and run, so that the demo and benchmark data sets are reproducible. Not for secrets.
 */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    /** A number in [0, 1). */
    next,
    /** An integer in [min, max], both included. */
    int: (min: number, max: number): number => min + Math.floor(next() * (max - min + 1)),
    /** True with probability `p`. */
    chance: (p: number): boolean => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    /** A shuffled copy (Fisher–Yates). */
    shuffle: <T>(items: readonly T[]): T[] => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
      }
      return copy;
    },
  };
}

export type Random = ReturnType<typeof createRandom>;
