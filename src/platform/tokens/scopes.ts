/** Every scope the API checks (spec §5.2). */
export const SCOPES = [
  'students:read',
  'courses:read',
  'users:read',
  'users:write',
  'enrolments:read',
  'identity-notifications:read',
  'certificates:read',
  'documents:read',
  'documents:write',
  'reports:read',
  'reports:write',
  'search:read',
  'organization:read',
  'organization:write',
  'workflows:read',
  'workflows:write',
  'tasks:read',
  'tasks:write',
  'integration-messages:read',
  'integration-messages:write',
  'health:read',
  'audit:read',
] as const;

export type Scope = (typeof SCOPES)[number];

/** May be held by a token but grant nothing through this API (spec §5.3). */
export const RESERVED_SCOPES = ['certificates:issue', 'integrations:manage'] as const;

export const WILDCARD = '*';

const grantable = new Set<string>([...SCOPES, ...RESERVED_SCOPES, WILDCARD]);

export function isGrantable(scope: string): boolean {
  return grantable.has(scope);
}

export function grants(held: readonly string[], needed: Scope): boolean {
  return held.includes(WILDCARD) || held.includes(needed);
}
