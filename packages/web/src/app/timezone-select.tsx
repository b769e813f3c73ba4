import { Box, Typography } from '@mui/material';
import { AuthLabels } from '@rpm/contracts';
import { useId } from 'react';
import { listTimezones, useTimezone } from '../lib/timezone.ts';

/** The spec's timezone selector: in the top bar, or inside the avatar menu on a phone. */
export function TimezoneSelect({ inMenu = false }: { inMenu?: boolean }) {
  const { timezone, setTimezone } = useTimezone();
  const id = useId();
  return (
    <Box
      sx={{ display: 'flex', alignItems: 'center', gap: 1, ...(inMenu && { px: 2, py: 1 }) }}
      // Inside the menu, arrow keys and typed letters belong to the select, not to the menu's own
      // keyboard navigation.
      onKeyDown={inMenu ? (e) => e.stopPropagation() : undefined}
    >
      <Typography component="label" htmlFor={id} variant="body2">
        {AuthLabels.timezone}
      </Typography>
      {/* A native select: long lists stay fast, and keyboard and screen readers work as usual. */}
      <Box
        component="select"
        id={id}
        value={timezone}
        onChange={(e) => setTimezone(e.target.value)}
        sx={{
          maxWidth: { xs: 140, sm: 220 },
          p: 0.75,
          borderRadius: 1,
          border: inMenu ? 1 : 'none',
          borderColor: 'divider',
          font: 'inherit',
          fontSize: 14,
          bgcolor: 'common.white',
          color: 'text.primary',
        }}
      >
        {listTimezones().map((zone) => (
          <option key={zone} value={zone}>
            {zone}
          </option>
        ))}
      </Box>
    </Box>
  );
}
