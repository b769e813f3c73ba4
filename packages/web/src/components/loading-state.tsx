import { Box, CircularProgress } from '@mui/material';

/**
 * The spinner shown while something loads (a page's code, the session check, a list);
 * `role="status"` so screen readers (and tests) find it.
 */
export function LoadingState({ py = 4, size }: { py?: number; size?: number }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py }} role="status" aria-label="Loading">
      <CircularProgress size={size} aria-label="Loading" />
    </Box>
  );
}
