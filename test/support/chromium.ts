import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { ci } from './env.ts';

/** Debian's Chromium, or the one CHROMIUM_PATH names. */
export const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = process.env.TEST_CHROMIUM !== '0' && existsSync(executablePath);

/** The `skip` of a browser test: under CI a missing browser is a failure, never a skip. */
export const skipWithoutChromium: string | false =
  !available && !ci ? `Chromium not available at ${executablePath} (install Debian's chromium or set CHROMIUM_PATH)` : false;

/**
 * The time a browser journey may take. Not a speed check (those are the benchmarks'): a journey of
 * a dozen pages, each checked with axe, took 66–300 s when CI ran both databases' suites side by side
 * with Chromium on a 2-core machine, and 240 s failed one. A hang still ends within the suite's limit.
 */
export const BROWSER_JOURNEY_MS = 900_000;

/** A headless Chromium that talks to nothing but the pages under test; `extraArgs` e.g. a host-name mapping. */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}
