import { PermissionDeniedError } from './errors.ts';

/**
 * What a staff user may do, granted directly or through roles (CONTRACT, "Staff sign-in and the
 * console"). Any active staff user may read; each change needs its permission. The names are a
 * public interface: the API shows them on a user's record and `academy admin users grant` takes them.
 */
export const PERMISSIONS = {
  'catalogue.manage': 'Courses, sessions, meetings, assessments and learning resources: create, edit, move through their workflows.',
  'courses.approve': 'Decide course approval workflows (approve a course for publication or send it back).',
  'documents.approve': 'Decide document approval workflows.',
  'students.manage': 'Students and applications, the CSV import.',
  'enrolments.manage': 'Enrol, cancel and complete enrolments.',
  'certificates.manage': 'Issue and revoke certificates.',
  'documents.manage': 'Upload, edit, archive and delete documents.',
  'reports.manage': 'Request and download reports.',
  'users.manage': 'Invite staff, move them through their lifecycle, grant roles and permissions, end their sessions.',
  'integrations.manage': 'API tokens, webhook endpoints and integrations.',
  'operations.manage': 'Organization settings, scheduled tasks, integration message retries.',
  'audit.read': 'Read the audit trail.',
} as const;

export type Permission = keyof typeof PERMISSIONS;

export const PERMISSION_NAMES = Object.keys(PERMISSIONS).sort() as Permission[];

export function isPermission(name: unknown): name is Permission {
  return typeof name === 'string' && Object.hasOwn(PERMISSIONS, name);
}

/** Roles: named sets of permissions (CONTRACT). A user's permissions are those of their roles and those granted directly. */
export const ROLES = {
  administrator: PERMISSION_NAMES,
  registrar: ['students.manage', 'enrolments.manage', 'certificates.manage', 'reports.manage'],
  coordinator: ['catalogue.manage', 'documents.manage', 'reports.manage'],
  approver: ['courses.approve', 'documents.approve'],
  viewer: [],
} as const satisfies Record<string, readonly Permission[]>;

export type Role = keyof typeof ROLES;

export const ROLE_NAMES = Object.keys(ROLES) as Role[];

/** What a user holding `roles` and the directly granted `permissions` may do, sorted, each once. */
export function effectivePermissions(roles: readonly string[], permissions: readonly string[]): Permission[] {
  const held = new Set<Permission>();
  for (const role of roles) if (Object.hasOwn(ROLES, role)) for (const p of ROLES[role as Role]) held.add(p);
  for (const permission of permissions) if (isPermission(permission)) held.add(permission);
  return PERMISSION_NAMES.filter((name) => held.has(name));
}

/**
 * Refuses the call (403 `permission_denied`, nothing done) when it acts for a staff user who does not
 * hold `permission`: a console session, a token tied to a user, `academy admin --as`. A token that
 * acts for nobody is bounded by its scopes alone, and the operator and the system by nothing. `ctx` is
 * a service call's context (src/platform/context.ts).
 */
export function requirePermission(ctx: { actor: { permissions: readonly Permission[] | null } }, permission: Permission): void {
  requireOneOf(ctx, [permission]);
}

/** The same, for an action some of whose forms need one permission and others another: any of them. */
export function requireOneOf(ctx: { actor: { permissions: readonly Permission[] | null } }, permissions: readonly Permission[]): void {
  const held = ctx.actor.permissions;
  if (held === null || permissions.some((permission) => held.includes(permission))) return;
  throw new PermissionDeniedError(`This needs the ${permissions.join(' or the ')} permission, which the acting user does not hold.`);
}
