import { createTheme } from '@mui/material/styles';
import { PRIMARY_COLOR } from '@rpm/contracts';

export const theme = createTheme({
  palette: { primary: { main: PRIMARY_COLOR } },
  shape: { borderRadius: 8 },
  components: {
    // A table wider than a phone scrolls inside its container; keyboard users must reach that
    // scroll too (WCAG 2.1.1), so the container takes focus and shows it.
    MuiTableContainer: {
      defaultProps: { tabIndex: 0 },
      styleOverrides: {
        root: ({ theme }) => ({ '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 2 } }),
      },
    },
  },
});
