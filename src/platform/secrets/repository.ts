import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { SECRET_COLUMNS, type SecretKind } from './box.ts';

export interface StoredSecret {
  kind: SecretKind;
  /** The row's `named` column: what messages call it, and how it is updated. */
  id: number | string;
  value: string;
}

/** The stored secrets of every registered column (SECRET_COLUMNS), read and rewritten as they are stored. */
export function createSecretRepository(db: Kysely<DB>) {
  // The table and column come from the registry, not from input; Kysely cannot type a name chosen at run time.
  const dynamic = (trx: Kysely<DB>) => trx as unknown as Kysely<Record<string, Record<string, string | number | null>>>;
  return {
    async list(kind: SecretKind, trx: Kysely<DB> = db): Promise<StoredSecret[]> {
      const { table, column, named } = SECRET_COLUMNS[kind];
      const rows = await dynamic(trx)
        .selectFrom(table)
        .select([`${named} as id`, `${column} as value`])
        .where(column, 'is not', null)
        .orderBy(named)
        .execute();
      return rows.map((row) => ({ kind, id: row.id as number | string, value: String(row.value) }));
    },

    async update(trx: Kysely<DB>, secret: StoredSecret, value: string): Promise<void> {
      const { table, column, named } = SECRET_COLUMNS[secret.kind];
      await dynamic(trx)
        .updateTable(table)
        .set({ [column]: value })
        .where(named, '=', secret.id)
        .where(column, '=', secret.value)
        .execute();
    },
  };
}

export type SecretRepository = ReturnType<typeof createSecretRepository>;
