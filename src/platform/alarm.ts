/**
 * The sleep of a background loop, which other code can cut short (new work, shutdown). A wake-up
 * that arrives while the loop is busy is remembered: the next sleep returns at once, so work that
 * arrived during a pass is not left waiting for the next poll.
 */
export function createAlarm() {
  let pending = false;
  let ring: (() => void) | null = null;
  return {
    wake(): void {
      pending = true;
      ring?.();
    },
    /** Forgets wake-ups so far: the loop is about to look for work anyway. */
    reset(): void {
      pending = false;
    },
    sleep(ms: number): Promise<void> {
      if (pending) {
        pending = false;
        return Promise.resolve();
      }
      return new Promise((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          ring = null;
          pending = false;
          resolve();
        }
        ring = done;
      });
    },
  };
}
