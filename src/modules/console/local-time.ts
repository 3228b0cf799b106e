/**
 * Instants typed in a form, in the organization's time zone: staff type the time on their wall
 * clock (`2027-01-04 09:00`, or what a `datetime-local` input sends, `2027-01-04T09:00`); the
 * services take RFC 3339 instants. Text that carries its own zone (`…Z`, `…+01:00`) is taken as it is.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function partsIn(instant: number, timeZone: string) {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(instant))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return parts as { year: number; month: number; day: number; hour: number; minute: number; second: number };
}

/** The zone's wall clock at `instant`, read as if it were UTC (ms). */
function wallAt(instant: number, timeZone: string): number {
  const w = partsIn(instant, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
}

const LOCAL = /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?$/;

/**
 * The form's text as the schema should see it: a wall-clock time in `timeZone` becomes its instant
 * in UTC (`2027-01-04T08:00:00.000Z`); anything else stays as typed, for the schema to judge. An
 * empty field is `null` (no time).
 */
export function instantOf(text: string | undefined, timeZone: string): string | null {
  const value = (text ?? '').trim();
  if (value === '') return null;
  const match = LOCAL.exec(value);
  if (!match) return value;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(wall);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return value;
  // The offset at a first guess, then at the instant it gives (a daylight-saving change in between).
  let guess = wall - (wallAt(wall, timeZone) - wall);
  guess = wall - (wallAt(guess, timeZone) - guess);
  return new Date(guess).toISOString();
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a `datetime-local` input shows it: the wall clock in `timeZone`, to the minute. */
export function localInputOf(iso: string | null, timeZone: string): string {
  if (!iso) return '';
  const w = partsIn(Date.parse(iso), timeZone);
  return `${String(w.year).padStart(4, '0')}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/** Whether the text was read as a wall-clock time (else the schema's message about RFC 3339 applies as typed). */
export function isLocalTime(text: string | undefined): boolean {
  return LOCAL.test((text ?? '').trim());
}
