import { Gauge, type Registry } from 'prom-client';
import type { Platform } from './platform.ts';

/** Sets one sample of a scraped gauge. */
export type SetSample<L extends string> = (labels: Record<L, string | number>, value: number) => void;

/**
 * A gauge whose samples are read when Prometheus scrapes (one small query, nothing on the request
 * path): `read` sets each sample of the family as it is now. A failing read leaves the family out of
 * that scrape rather than failing it, and is logged.
 */
export function scrapedGauge<L extends string>(
  registry: Registry,
  platform: Platform,
  options: { name: string; help: string; labelNames: readonly L[]; read(set: SetSample<L>): Promise<void> },
): void {
  new Gauge({
    name: options.name,
    help: options.help,
    labelNames: options.labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      try {
        await options.read((labels, value) => this.set(labels, value));
      } catch (error) {
        platform.logger.warn({ err: error }, 'metrics: the database could not be read for a scrape');
      }
    },
  });
}
