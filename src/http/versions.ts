import type { ApiVersion } from '../platform/versions.ts';
import { publicLink } from './links.ts';

export interface VersionState {
  /** Lifecycle headers for every response of this version. */
  headers: Record<string, string>;
  sunset: boolean;
}

function when(value: string | null): Date | null {
  return value ? new Date(value) : null;
}

/** The version's lifecycle at `now`: RFC 9745 Deprecation, RFC 8594 Sunset and their Link relations. */
export function versionState(version: ApiVersion, now: Date, publicUrl: string | null): VersionState {
  const headers: Record<string, string> = {};
  const deprecatedAt = when(version.deprecated_at);
  const sunsetAt = when(version.sunset_at);
  const doc = publicLink(publicUrl, version.documentation);
  const links: string[] = [];
  if (version.status !== 'active' || (deprecatedAt && deprecatedAt <= now)) {
    const at = deprecatedAt ?? now;
    headers.deprecation = `@${Math.floor(at.getTime() / 1000)}`;
    links.push(`<${doc}>; rel="deprecation"; type="text/html"`);
  }
  if (sunsetAt) {
    headers.sunset = sunsetAt.toUTCString();
    links.push(`<${doc}>; rel="sunset"; type="text/html"`);
  }
  if (links.length) headers.link = links.join(', ');
  const sunset = version.status === 'sunset' || (sunsetAt !== null && sunsetAt <= now);
  return { headers, sunset };
}
