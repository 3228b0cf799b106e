import type { ServiceContext } from '../../platform/context.ts';
import type { Permission } from '../../platform/permissions.ts';

/**
 * Who is looking at a console page: the signed-in staff user, the context their service calls are
 * made in (their permissions decide, `via` is `console`), the CSRF token of the page's forms, and the
 * organization's time zone that times are shown in.
 */
export interface Viewer {
  user: { id: number; name: string; email: string; permissions: readonly Permission[] };
  ctx: ServiceContext;
  csrf: string;
  timeZone: string;
  /** The text of the search box in the masthead (the search page shows what was searched for). */
  search?: string;
  /** Where a refusal of this request's action leads back to (the page its form was on). */
  back?: string;
}

/**
 * Whether the viewer holds `permission`: pages hide the buttons of actions the user may not take.
 * It decides nothing: every action is refused by its service (403, nothing changed) without it.
 */
export function may(viewer: Viewer, permission: Permission): boolean {
  return viewer.user.permissions.includes(permission);
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** An instant (RFC 3339) as the organization reads it: `29 Nov 2026, 10:04 GMT`, in its time zone. */
export function formatTime(iso: string, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    });
    formats.set(timeZone, format);
  }
  return format.format(new Date(iso));
}

const dates = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' });

/** A calendar date (YYYY-MM-DD, no time zone: a session's first day) as `29 Nov 2026`. */
export function formatDate(date: string): string {
  return dates.format(new Date(`${date}T00:00:00Z`));
}
