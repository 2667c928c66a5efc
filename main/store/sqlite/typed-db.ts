// The database handle every store uses, wrapped once so that whatever better-sqlite3 throws
// (from a statement, a transaction, a pragma, or the rows of an iteration) leaves as a typed
// StoreError naming the file: no caller, in the app or in a batch tool, ever sees a raw
// SqliteError. Errors that are not SQLite's (a rule inside a transaction) pass unchanged.

import type Database from 'better-sqlite3';

import { toStoreError } from '../errors';

type Db = Database.Database;
type AnyFunction = (...args: unknown[]) => unknown;

/** The error to throw instead of `error`; `mapError` may add what the handle knows (a fault). */
export type ErrorMapper = (error: unknown) => unknown;

export function defaultErrorMapper(file: string): ErrorMapper {
  return (error) => toStoreError(error, file) ?? error;
}

function call(fn: AnyFunction, self: object, args: unknown[], mapError: ErrorMapper): unknown {
  try {
    return fn.apply(self, args);
  } catch (error) {
    throw mapError(error);
  }
}

function typedIterator(
  iterator: Iterator<unknown>,
  mapError: ErrorMapper,
): IterableIterator<unknown> {
  const guarded = <R>(step: () => R): R => {
    try {
      return step();
    } catch (error) {
      throw mapError(error);
    }
  };
  const typed: IterableIterator<unknown> = {
    next: () => guarded(() => iterator.next()),
    return: (value?: unknown) =>
      guarded(() => (iterator.return ? iterator.return(value) : { done: true, value })),
    [Symbol.iterator]: () => typed,
  };
  return typed;
}

function typedStatement<T extends object>(statement: T, mapError: ErrorMapper): T {
  const proxy: T = new Proxy(statement, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const out = call(value as AnyFunction, target, args, mapError);
        if (out === target) return proxy; // chaining: safeIntegers(), pluck(), raw(), bind()
        if (prop === 'iterate') return typedIterator(out as Iterator<unknown>, mapError);
        return out;
      };
    },
  });
  return proxy;
}

/** A transaction function and its deferred/immediate/exclusive variants, typed. */
function typedTransaction(transaction: AnyFunction, mapError: ErrorMapper): AnyFunction {
  const wrap =
    (fn: AnyFunction): AnyFunction =>
    (...args: unknown[]) =>
      call(fn, transaction, args, mapError);
  const typed = wrap(transaction) as AnyFunction & Record<string, AnyFunction>;
  for (const variant of ['deferred', 'immediate', 'exclusive'] as const) {
    const fn = (transaction as unknown as Record<string, AnyFunction | undefined>)[variant];
    if (fn) typed[variant] = wrap(fn);
  }
  return typed;
}

export function typedDb(db: Db, mapError: ErrorMapper): Db {
  const proxy: Db = new Proxy(db, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const out = call(value as AnyFunction, target, args, mapError);
        if (out === target) return proxy; // chaining: function(), defaultSafeIntegers()...
        if (prop === 'prepare') return typedStatement(out as object, mapError);
        if (prop === 'transaction') return typedTransaction(out as AnyFunction, mapError);
        return out;
      };
    },
  });
  return proxy;
}
