import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { isSealed, SECRET_COLUMNS, type SecretBox, SecretKeyError, type SecretKind, sealedKeyId } from './box.ts';
import { createSecretRepository, type StoredSecret } from './repository.ts';

const KINDS = Object.keys(SECRET_COLUMNS) as SecretKind[];

export interface SealOutcome {
  /** Values stored in plain text (by an earlier version) that are now encrypted. */
  encrypted: number;
  /** Values encrypted under another key than the configured one, by key id: they will not open. */
  otherKeys: Record<string, number>;
}

export interface RotateOutcome {
  key_id: string;
  reencrypted: number;
  encrypted: number;
  unchanged: number;
}

/** The stored secrets as a whole: encrypting the ones an earlier version stored in plain text, and rotating the key. */
export function createSecretStore(db: Kysely<DB>, box: SecretBox) {
  const repository = createSecretRepository(db);
  const all = async (trx: Kysely<DB>) => (await Promise.all(KINDS.map((kind) => repository.list(kind, trx)))).flat();
  const place = (secret: StoredSecret) => ({ kind: secret.kind, id: secret.id });

  return {
    /**
     * Encrypts what an earlier version stored in plain text. Migrations run without the key (they take
     * only the database, also from the test templates and the deployment's migrate step), so this runs
     * after them in every process start and command instead (src/assembly/commands/main.ts, `serve`, `migrate`): no
     * process reads a secret before it has run, and reads accept only the encrypted form. A value
     * written meanwhile by a process of the earlier version is encrypted at the next start.
     */
    async sealPlain(): Promise<SealOutcome> {
      const stored = await all(db);
      const otherKeys: Record<string, number> = {};
      for (const secret of stored) {
        const id = sealedKeyId(secret.value);
        if (id !== null && id !== box.keyId) otherKeys[id] = (otherKeys[id] ?? 0) + 1;
      }
      const plain = stored.filter((secret) => !isSealed(secret.value));
      if (plain.length === 0) return { encrypted: 0, otherKeys };
      await db.transaction().execute(async (trx) => {
        for (const secret of plain) await repository.update(trx, secret, box.seal(secret.kind, secret.value));
      });
      return { encrypted: plain.length, otherKeys };
    },

    /**
     * Re-encrypts every stored secret under this box's key, opening those under `from`'s, in one
     * transaction: a value under neither key stops it with nothing changed. Run again, it finds
     * everything under the new key and changes nothing.
     */
    async rotate(from: SecretBox): Promise<RotateOutcome> {
      return db.transaction().execute(async (trx) => {
        const outcome: RotateOutcome = { key_id: box.keyId, reencrypted: 0, encrypted: 0, unchanged: 0 };
        for (const secret of await all(trx)) {
          const id = sealedKeyId(secret.value);
          if (!isSealed(secret.value)) {
            await repository.update(trx, secret, box.seal(secret.kind, secret.value));
            outcome.encrypted += 1;
          } else if (id === box.keyId) {
            box.open(place(secret), secret.value);
            outcome.unchanged += 1;
          } else if (id === from.keyId) {
            await repository.update(trx, secret, box.seal(secret.kind, from.open(place(secret), secret.value)));
            outcome.reencrypted += 1;
          } else {
            throw new SecretKeyError(
              `The stored ${SECRET_COLUMNS[secret.kind].label} ${secret.id} is encrypted under secret key ${id ?? '(unreadable)'}, ` +
                `neither the configured key ${box.keyId} nor the --from-key-file key ${from.keyId}: nothing was re-encrypted.`,
            );
          }
        }
        return outcome;
      });
    },
  };
}
