/** The name columns of a staff member, as repositories read them (all null when none is joined). */
export interface StaffNameRow {
  first_name: string | null;
  last_name: string | null;
  title?: string | null;
  email: string | null;
}

// PostgreSQL's btrim, which the names were once built with: spaces only.
const trimSpaces = (s: string | null | undefined) => (s ?? '').replace(/^ +| +$/g, '');

/**
 * How a staff member is shown (note authors, primary providers, provider lists): first and last
 * name, then the title after a comma when `withTitle`; a member without a recorded name is still
 * identifiable by their e-mail. Null when there is no staff member at all.
 */
export function staffName(row: StaffNameRow, withTitle: boolean): string | null {
  const name = [row.first_name, row.last_name].map(trimSpaces).filter(Boolean).join(' ');
  if (!name) return row.email;
  const title = withTitle ? trimSpaces(row.title) : '';
  return title ? `${name}, ${title}` : name;
}
