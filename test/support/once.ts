/**
 * A write that a test makes once, between two reads of the code it tests (a repository wrapped to
 * call `make` after its first read): the later reads must not see it. `made` says whether it happened,
 * so that a test whose reads never came in that order cannot pass unnoticed.
 */
export function commitOnce(write: () => Promise<unknown>): { make(): Promise<void>; readonly made: boolean } {
  let made = false;
  return {
    async make() {
      if (made) return;
      made = true;
      await write();
    },
    get made() {
      return made;
    },
  };
}
