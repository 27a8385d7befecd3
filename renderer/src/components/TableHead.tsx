/** One column heading: its text, or `{ hidden }` for a column only screen readers name (a column of buttons). */
export type Column = string | { hidden: string };

/** A table's column headings (each `scope="col"`), shared by every table of the window. */
export function TableHead({ columns }: { columns: readonly Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) =>
          typeof c === 'string' ? (
            <th scope="col" key={c}>
              {c}
            </th>
          ) : (
            <th scope="col" key={c.hidden}>
              <span className="visually-hidden">{c.hidden}</span>
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}
