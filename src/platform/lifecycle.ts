import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { ConflictError, NotFoundError } from './errors.ts';
import type { EventType } from './events/types.ts';

/** One move of a lifecycle: the states it may start from and the state it leads to. */
export interface Move<S extends string> {
  from: readonly S[];
  to: S;
}

/** Writes a domain event in the caller's transaction (the outbox). */
export interface EventSink {
  emit(trx: Kysely<DB>, type: EventType, payload: Record<string, unknown>): Promise<unknown>;
}

export interface LifecycleSpec<S extends string, M extends string> {
  /** The table whose rows move, with an integer `id`. */
  table: keyof DB & string;
  /** The state column (default `status`). */
  column?: string;
  moves: Record<M, Move<S>>;
  /** The 409 for a move that the current state does not allow (default: `invalid_transition`). */
  refuse?: (move: M, current: S) => ConflictError;
}

export interface MoveOptions {
  /** Other columns written with the move (timestamps, counters, reasons). */
  set?: Record<string, unknown>;
  /** The domain event the move causes, written to the outbox in the same transaction. */
  event?: { sink: EventSink; type: EventType; payload: Record<string, unknown> };
  /** Further side effects in the same transaction (jobs to enqueue, rows to write). */
  effects?: (trx: Kysely<DB>) => Promise<void>;
}

/** What a lifecycle announces its moves on: the change feed (src/platform/changes.ts). */
export interface Announcer {
  announce(trx: Kysely<DB>): Promise<void>;
}

/**
 * A lifecycle as data: a table of moves and one function that applies a move. The move is one
 * conditional UPDATE inside the caller's transaction (only from the states the move allows, so two
 * concurrent moves cannot both win); the event and side effects are written in that transaction too,
 * so they exist exactly when the move was committed. A move the current state does not allow is a 409.
 */
export function defineLifecycle<S extends string, M extends string>(spec: LifecycleSpec<S, M>) {
  const column = spec.column ?? 'status';
  const refuse =
    spec.refuse ??
    ((move: M, current: S) =>
      new ConflictError('invalid_transition', `Cannot ${move} from ${current}: the ${move} move is not allowed in that state.`));

  /** The lifecycle, announcing each move it applies on `feed` when there is one (announcedOn). */
  function build(feed?: Announcer) {
    return {
      moves: spec.moves,

      /** Whether `move` may start from `state`. */
      allows(move: M, state: S): boolean {
        return (spec.moves[move].from as readonly string[]).includes(state);
      },

      /** The move that leads from `state` to `to`, if the lifecycle has one (a transition asked for by its target state). */
      moveTo(state: S, to: S): M | undefined {
        return (Object.keys(spec.moves) as M[]).find((move) => spec.moves[move].to === to && this.allows(move, state));
      },

      /** The moves that may start from `state`, e.g. to show a resource's allowed transitions. */
      movesFrom(state: S): M[] {
        return (Object.keys(spec.moves) as M[]).filter((move) => this.allows(move, state));
      },

      /**
       * Applies `move` to row `id` if its state allows it, and then writes the move's event and effects;
       * false (and nothing written) when the row is missing or its state does not allow the move.
       */
      async tryApply(trx: Kysely<DB>, id: number, move: M, options: MoveOptions = {}): Promise<boolean> {
        const { from, to } = spec.moves[move];
        const result = await (trx as unknown as Kysely<Record<string, Record<string, unknown>>>)
          .updateTable(spec.table)
          .set({ ...options.set, [column]: to })
          .where('id', '=', id)
          .where(column, 'in', [...from])
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        if (options.event) await options.event.sink.emit(trx, options.event.type, options.event.payload);
        await options.effects?.(trx);
        await feed?.announce(trx);
        return true;
      },

      /** Applies `move` to row `id`: a 404 when there is no such row, a 409 when its state does not allow the move. */
      async apply(trx: Kysely<DB>, id: number, move: M, options: MoveOptions = {}): Promise<void> {
        if (await this.tryApply(trx, id, move, options)) return;
        const row = await (trx as unknown as Kysely<Record<string, Record<string, unknown>>>)
          .selectFrom(spec.table)
          .select(column)
          .where('id', '=', id)
          .executeTakeFirst();
        if (!row) throw new NotFoundError();
        throw refuse(move, row[column] as S);
      },

      /**
       * The same lifecycle, announcing every move it applies on `feed` in the move's transaction: built
       * by the repository of rows that kept reads show (src/http/kept.ts), so that no service has to.
       */
      announcedOn(feed: Announcer) {
        return build(feed);
      },
    };
  }
  return build();
}

export type Lifecycle<S extends string, M extends string> = ReturnType<typeof defineLifecycle<S, M>>;
