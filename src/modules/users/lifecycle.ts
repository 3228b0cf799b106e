import { defineLifecycle } from '../../platform/lifecycle.ts';
import type { NotificationType } from '../notifications/schemas.ts';
import type { UserState } from './schemas.ts';

export type UserMove = 'invite' | 'activate' | 'suspend' | 'reactivate' | 'archive';

/**
 * The staff lifecycle: draft → invited (invite) → active (the invitation accepted, or `academy admin
 * users activate`) ⇄ suspended (suspend, reactivate); archive from every state but archived, which is
 * final. Any other move is a 409 `invalid_transition`.
 */
export const userLifecycle = defineLifecycle<UserState, UserMove>({
  table: 'users',
  moves: {
    invite: { from: ['draft'], to: 'invited' },
    activate: { from: ['invited'], to: 'active' },
    suspend: { from: ['active'], to: 'suspended' },
    reactivate: { from: ['suspended'], to: 'active' },
    archive: { from: ['draft', 'invited', 'active', 'suspended'], to: 'archived' },
  },
});

/** Each move sends exactly one notification, of its own type. */
export const MOVE_NOTIFICATIONS: Record<UserMove, NotificationType> = {
  invite: 'invitation',
  activate: 'activation',
  suspend: 'suspension',
  reactivate: 'reactivation',
  archive: 'archival',
};

/** The timestamps each move writes besides `status`. */
export function moveTimestamps(move: UserMove, now: string): Record<string, string | null> {
  switch (move) {
    case 'invite':
      return { invited_at: now };
    case 'activate':
      return { activated_at: now };
    case 'suspend':
      return { suspended_at: now };
    case 'reactivate':
      return { suspended_at: null };
    case 'archive':
      return { archived_at: now };
  }
}
