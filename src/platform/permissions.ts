/**
 * The permissions a staff user can hold, beside the scopes of the token they act with. They are
 * granted only by the administration (`academy admin users grant ID --data '{"permissions":[…]}'`),
 * never through the API, and checked where an action needs more than a scope: a workflow's
 * `approval_policy.required_permission`.
 */
export const PERMISSIONS = {
  'courses.approve': 'Decide course approval workflows (approve a course for publication or send it back).',
  'documents.approve': 'Decide document approval workflows.',
} as const;

export type Permission = keyof typeof PERMISSIONS;

export const PERMISSION_NAMES = Object.keys(PERMISSIONS).sort() as Permission[];

export function isPermission(name: unknown): name is Permission {
  return typeof name === 'string' && Object.hasOwn(PERMISSIONS, name);
}
