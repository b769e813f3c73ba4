import type { SxProps, Theme } from '@mui/material';

/**
 * Every pager's bar wraps on a phone instead of running off the screen: with first and last
 * buttons it is wider than 390 px, and its next-page buttons were then out of reach.
 */
export const WRAPPING_PAGER_SX: SxProps<Theme> = {
  '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', justifyContent: 'flex-end' },
};
