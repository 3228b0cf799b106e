import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';
import { ConfigError } from '../config.ts';
import { publicLink } from './links.ts';
import { StringEnum } from './schemas.ts';

export const DEFAULT_VERSIONS_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../config/api-versions.json');

const IsoDate = Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time' }), Type.Null()]);

export const ApiVersion = Type.Object(
  {
    version: Type.String({ pattern: '^v[0-9]+$' }),
    status: StringEnum(['active', 'deprecated', 'sunset']),
    released_at: IsoDate,
    deprecated_at: IsoDate,
    sunset_at: IsoDate,
    documentation: Type.String({
      description:
        'The documentation of the version: an absolute URL, or a path on this server, which the `Link` headers give as it is (relative) unless the deployment sets its public URL (`ACADEMY_PUBLIC_URL`).',
    }),
  },
  {
    examples: [
      { version: 'v1', status: 'active', released_at: '2026-11-22', deprecated_at: null, sunset_at: null, documentation: '/docs' },
    ],
  },
);
export type ApiVersion = Static<typeof ApiVersion>;

const Registry = Type.Object({ versions: Type.Array(ApiVersion, { minItems: 1 }) });

/** Reads the version registry (status, dates and documentation per API version). */
export function loadVersions(file: string | null): ApiVersion[] {
  const source = file ?? DEFAULT_VERSIONS_FILE;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(source, 'utf8'));
  } catch (error) {
    throw new ConfigError('ACADEMY_VERSIONS_FILE', `cannot be read as JSON (${(error as Error).message})`);
  }
  if (!Value.Check(Registry, parsed)) {
    const first = [...Value.Errors(Registry, parsed)][0];
    throw new ConfigError(
      'ACADEMY_VERSIONS_FILE',
      `is not a valid version registry (${first?.instancePath ?? ''} ${first?.message ?? ''})`,
    );
  }
  return parsed.versions;
}

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
