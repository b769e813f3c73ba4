import { createTheme } from '@mui/material/styles';
import { PRIMARY_COLOR } from '@rpm/contracts';

export const theme = createTheme({
  palette: { primary: { main: PRIMARY_COLOR } },
  shape: { borderRadius: 8 },
});
