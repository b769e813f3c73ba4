import { useForm, type FieldValues, type UseFormProps } from 'react-hook-form';
import { schemaResolver } from './schema-resolver.ts';

/**
 * A react-hook-form form checked by a form schema. By default a field is checked when left and
 * on submit, and a message stays until the field is left again or the form is submitted: typing
 * never makes a message flicker in and out.
 */
export function useSchemaForm<Values extends FieldValues>(
  schema: object,
  props: Omit<UseFormProps<Values>, 'resolver'>,
) {
  return useForm<Values>({
    mode: 'onBlur',
    reValidateMode: 'onBlur',
    ...props,
    resolver: schemaResolver<Values>(schema),
  });
}
