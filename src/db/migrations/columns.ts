import type { ColumnDataType, ColumnDefinitionBuilder, CreateTableBuilder } from 'kysely';

type DataTypeExpression = ColumnDataType;

import type { Dialect } from '../database.ts';

/**
 * The one place where the two dialects' column types differ. Migrations describe tables once and
 * ask this for the dialect's spelling of ids, timestamps, booleans and JSON.
 */
export function columns(dialect: Dialect) {
  const sqlite = dialect === 'sqlite';
  return {
    timestamp: (sqlite ? 'text' : 'timestamptz') as DataTypeExpression,
    bool: (sqlite ? 'integer' : 'boolean') as DataTypeExpression,
    json: (sqlite ? 'text' : 'jsonb') as DataTypeExpression,
    id<T extends string>(table: CreateTableBuilder<T, never>) {
      return table.addColumn('id', 'integer', (col: ColumnDefinitionBuilder) =>
        sqlite ? col.primaryKey().autoIncrement() : col.primaryKey().generatedByDefaultAsIdentity(),
      );
    },
  };
}
