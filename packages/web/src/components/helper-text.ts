/**
 * A field's helper line: the message, or an empty line when there is none. The line is always
 * there, so a message appearing or going away on blur never moves the button under the pointer.
 */
export function helperLine(message: string | null | undefined): string {
  return message || ' ';
}
