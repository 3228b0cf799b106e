/**
 * Money is stored in minor units of its currency (cents) and shown as a decimal string with the
 * currency's own number of minor-unit digits: "450.00" EUR, "450" JPY, "450.000" BHD.
 */

const digitsByCurrency = new Map<string, number>();

/** The ISO 4217 minor-unit digits of `currency`, as the platform's Intl data knows them. */
export function minorDigits(currency: string): number {
  let digits = digitsByCurrency.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    digitsByCurrency.set(currency, digits);
  }
  return digits;
}

/** `minor` units of `currency` as a decimal string, without floating point. */
export function formatMoney(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  if (digits === 0) return `${sign}${abs}`;
  const unit = 10 ** digits;
  return `${sign}${Math.floor(abs / unit)}.${String(abs % unit).padStart(digits, '0')}`;
}

/**
 * A non-negative decimal string ("450", "450.5", "450.00") in minor units of `currency`; null when it
 * is not one or has more decimals than the currency has minor digits.
 */
export function parseMoney(text: string, currency: string): number | null {
  const digits = minorDigits(currency);
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return null;
  return Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}
