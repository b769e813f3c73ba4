/**
 * Out of sight but read by screen readers: what a narrow screen leaves out for the eye (a mark's
 * meaning, a table's heading row) while its cells still need their names.
 */
export const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
