import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** axe's serious and critical violations of the page as it is, one line each. */
export async function violations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/**
 * The page as it is, checked at 1280 px and at 375 px (a phone): no serious or critical axe
 * violation, and at 375 px the page itself does not scroll sideways. The page must belong to a
 * context of its own (`browser.newContext()`), which axe needs.
 */
export async function checkPage(page: Page, what: string): Promise<void> {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    assert.deepEqual(await violations(page), [], `${what} at ${width} px`);
    if (width === 375) {
      const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
      assert.ok(scrollWidth <= 375, `${what} is ${scrollWidth} px wide at 375 px`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
