import { useEffect } from 'react';
import type { FieldValues, Path, PathValue, UseFormGetValues, UseFormSetValue } from 'react-hook-form';

/** With a single organization there is nothing to choose: a form's organization field gets it. */
export function useOnlyOrganization<Values extends FieldValues & { organization_id: string }>(
  organizations: readonly { id: number }[],
  getValues: UseFormGetValues<Values>,
  setValue: UseFormSetValue<Values>,
) {
  const only = organizations.length === 1 ? String(organizations[0]!.id) : null;
  useEffect(() => {
    const field = 'organization_id' as Path<Values>;
    if (only && getValues(field) === '') setValue(field, only as PathValue<Values, Path<Values>>);
  }, [only, getValues, setValue]);
}
