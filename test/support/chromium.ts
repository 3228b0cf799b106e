import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { ci } from './env.ts';

/** Debian's Chromium, or the one CHROMIUM_PATH names. */
export const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = process.env.TEST_CHROMIUM !== '0' && existsSync(executablePath);

/** The `skip` of a browser test: under CI a missing browser is a failure, never a skip. */
export const skipWithoutChromium: string | false =
  !available && !ci ? `Chromium not available at ${executablePath} (install Debian's chromium or set CHROMIUM_PATH)` : false;

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
