import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';
import { ConfigError } from '../config.ts';

export const DEFAULT_VERSIONS_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../config/api-versions.json');

const IsoDate = Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time' }), Type.Null()]);

export const ApiVersion = Type.Object(
  {
    version: Type.String({ pattern: '^v[0-9]+$' }),
    status: Type.Unsafe<'active' | 'deprecated' | 'sunset'>({ type: 'string', enum: ['active', 'deprecated', 'sunset'] }),
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
