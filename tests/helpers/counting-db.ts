import { getTableName, is, Table } from "drizzle-orm";
import type { Db } from "~/server/postgres.server";

/**
 * The app's PostgreSQL handle, recording each `select … from <table>` in `tablesRead` (one entry
 * per read), so a test can count how often a request reads a table.
 */
export function countingDb(db: Db, tablesRead: { push(table: string): unknown }): Db {
  return new Proxy(db, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== "select") return typeof value === "function" ? value.bind(target) : value;
      return (...args: unknown[]) => {
        const builder = value.apply(target, args);
        const from = builder.from.bind(builder);
        builder.from = (table: unknown) => {
          if (is(table, Table)) tablesRead.push(getTableName(table));
          return from(table);
        };
        return builder;
      };
    },
  });
}
