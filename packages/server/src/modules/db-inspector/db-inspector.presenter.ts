import { DB_SAMPLE_MAX_ROWS, type DbSampleResponse, type DbSchemaResponse } from '@rpm/contracts';
import type { CatalogColumn } from './db-inspector.repository.ts';

/** An inspectable table: the columns shown, and the names of those withheld. */
export interface InspectableTable {
  name: string;
  visible: CatalogColumn[];
  withheld: string[];
}

export const presentTableSchema = (t: InspectableTable): DbSchemaResponse => ({
  table: t.name,
  columns: t.visible.map((c) => ({ name: c.name, type: c.type, nullable: c.nullable })),
  withheld: t.withheld,
});

/** JSON-safe cell values: binary as hex text, everything else as the driver gives it. */
const toJsonValue = (v: unknown): unknown => (Buffer.isBuffer(v) ? `\\x${v.toString('hex')}` : v);

/** Sample rows with the shown columns only, in the catalog's order. */
export function presentSample(t: InspectableTable, rows: Record<string, unknown>[]): DbSampleResponse {
  const columns = t.visible.map((c) => c.name);
  return {
    table: t.name,
    columns,
    rows: rows.map((r) => Object.fromEntries(columns.map((c) => [c, toJsonValue(r[c])]))),
    withheld: t.withheld,
    limit: DB_SAMPLE_MAX_ROWS,
  };
}
