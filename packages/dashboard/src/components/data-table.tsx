import type { ReactNode } from 'react';

/**
 * A column: its header, its cell for a row, and the cell's class. `false` or `undefined` leaves the column out: a
 * column only some callers see (the platform admin's `Account`).
 */
export type Column<R> =
  readonly [header: string, cell: (row: R) => ReactNode, className?: string | ((row: R) => string)] | false | undefined;

/** A table of one row per item, each column's header and cell declared side by side. */
export function DataTable<R>(props: {
  label?: string;
  caption?: string;
  rows: readonly R[] | undefined;
  rowKey: (row: R) => string;
  columns: ReadonlyArray<Column<R>>;
}) {
  const columns = props.columns.filter((c) => !!c);
  return (
    <table aria-label={props.label}>
      {props.caption && <caption>{props.caption}</caption>}
      <thead>
        <tr>
          {columns.map(([header], i) => (
            <th key={i}>{header}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {(props.rows ?? []).map((r) => (
          <tr key={props.rowKey(r)}>
            {columns.map(([, cell, className], i) => (
              <td key={i} className={typeof className === 'function' ? className(r) : className}>
                {cell(r)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
