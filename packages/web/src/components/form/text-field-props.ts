import {
  get,
  type ControllerFieldState,
  type ControllerRenderProps,
  type FieldPath,
  type FieldValues,
  type UseFormReturn,
} from 'react-hook-form';
import type { FocusEvent } from 'react';
import { helperLine } from '../helper-text.ts';

interface Options {
  /**
   * Leaving the field empty says nothing (and clears an earlier message): only what has been
   * typed is judged on leaving, the submit check covers an empty field.
   */
  quietWhenEmpty?: boolean;
}

/**
 * The props binding an MUI text field to a form field that shows no message of its own. MUI
 * puts `ref` on its outer element, so the form's ref goes to the input itself (`inputRef`). The
 * value is passed too: MUI only knows a field is empty again after a reset (and lowers its
 * label) when it is told the value.
 */
export function inputProps<Values extends FieldValues>(form: UseFormReturn<Values>, name: FieldPath<Values>) {
  const { ref, ...rest } = form.register(name);
  return { ...rest, value: form.watch(name) ?? '', inputRef: ref };
}

/** A field's message props: marked and said when wrong, an empty line otherwise. */
const messageProps = (message: string | undefined) => ({
  error: message !== undefined,
  helperText: helperLine(message),
});

/** The props binding an MUI text field (or PasswordField) to a form field: value, checks, message. */
export function textFieldProps<Values extends FieldValues>(
  form: UseFormReturn<Values>,
  name: FieldPath<Values>,
  { quietWhenEmpty = false }: Options = {},
) {
  const { onBlur, ...rest } = inputProps(form, name);
  const message = (get(form.formState.errors, name) as { message?: string } | undefined)?.message;
  return {
    ...rest,
    ...messageProps(message),
    onBlur: (event: FocusEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      if (quietWhenEmpty && !event.target.value.trim()) {
        form.clearErrors(name);
        return Promise.resolve();
      }
      return onBlur(event);
    },
  };
}

/**
 * The props binding an MUI text field to a Controller's field: for selects, whose options may
 * arrive after the value (a plain registered select would fall back to its first option).
 */
export function controlledInputProps<Values extends FieldValues, Name extends FieldPath<Values>>(
  field: ControllerRenderProps<Values, Name>,
) {
  return { name: field.name, value: field.value, onChange: field.onChange, onBlur: field.onBlur, inputRef: field.ref };
}

/** `controlledInputProps` and the field's message. */
export function controlledFieldProps<Values extends FieldValues, Name extends FieldPath<Values>>(
  field: ControllerRenderProps<Values, Name>,
  fieldState: ControllerFieldState,
) {
  return { ...controlledInputProps(field), ...messageProps(fieldState.error?.message) };
}
