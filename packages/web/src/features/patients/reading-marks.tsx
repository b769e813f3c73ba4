import ReportIcon from '@mui/icons-material/Report';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { Box, Stack, TableCell, Typography, alpha, type Theme } from '@mui/material';
import {
  AlertTexts,
  PatientTexts,
  type ChartBand,
  type MeasurementKind,
  type MeasurementLevel,
  type ThresholdValues,
} from '@rpm/contracts';
import { VISUALLY_HIDDEN } from '../../components/visually-hidden.ts';

/**
 * The marks of the patient's tables: the level and words of the kind's one classifier (the same
 * the alert rules use), so a reading the rules treat as stage 2 is marked stage 2 here.
 */
type MarkedLevel = Exclude<MeasurementLevel, 'normal'>;

const LEVEL_STYLE: Record<MarkedLevel, { Icon: typeof ReportIcon; color: string }> = {
  critical: { Icon: ReportIcon, color: 'error.main' },
  high: { Icon: WarningAmberIcon, color: 'warning.dark' },
  low: { Icon: WarningAmberIcon, color: 'warning.dark' },
  elevated: { Icon: WarningAmberIcon, color: 'text.secondary' },
};

/** A tinted row, never colour alone: the time cell also carries an icon and the words. */
export function rowStyle(level: MeasurementLevel) {
  if (level === 'normal') return undefined;
  return (theme: Theme) => ({
    backgroundColor: alpha(
      level === 'critical' ? theme.palette.error.main : theme.palette.warning.main,
      level === 'critical' ? 0.16 : level === 'elevated' ? 0.05 : 0.1,
    ),
    '& td': level === 'critical' ? { fontWeight: 700 } : {},
  });
}

const TIME_CELL = 'reading-time';
const TIME_TEXT = 'reading-time-text';
const MARK_MEANING = 'reading-mark-meaning';

/**
 * The readings tables' rules, given to the table once (DataTable's tableSx): the first cell is
 * 140 px wide at least and its time on one line; on a phone the date and the time take two lines,
 * and a mark's meaning, which the legend above the table says once, is left to screen readers.
 */
export const READING_TABLE_SX = (theme: Theme) => ({
  [`& td.${TIME_CELL}`]: { minWidth: 140, [theme.breakpoints.down('sm')]: { minWidth: 0 } },
  [`& .${TIME_TEXT}`]: { whiteSpace: 'nowrap', [theme.breakpoints.down('sm')]: { whiteSpace: 'normal' } },
  [`& .${MARK_MEANING}`]: {
    [theme.breakpoints.down('sm')]: VISUALLY_HIDDEN,
  },
});

export function LevelMark({ level, label }: { level: MarkedLevel; label: string }) {
  const { Icon, color } = LEVEL_STYLE[level];
  return (
    // Below the time, so that on a phone the mark's words do not push the values out of view.
    <Box component="span" sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5, mt: 0.5 }}>
      <Icon fontSize="small" sx={{ color }} aria-hidden />
      <Typography component="span" variant="body2" sx={{ fontWeight: 700 }}>
        {AlertTexts.levels[level]}
        {label && <span className={MARK_MEANING}>{`: ${label}`}</span>}
      </Typography>
    </Box>
  );
}

/** A reading's first cell: when it was measured, and its mark (styled by READING_TABLE_SX). */
export function ReadingTimeCell({ time, level, label }: { time: string; level: MeasurementLevel; label: string }) {
  return (
    <TableCell className={TIME_CELL}>
      <span className={TIME_TEXT}>{time}</span>
      {level !== 'normal' && <LevelMark level={level} label={label} />}
    </TableCell>
  );
}

/** Each band once (a kind may draw the same band for two components), most urgent first. */
export function legendBands(kind: MeasurementKind, thresholds: ThresholdValues): ChartBand[] {
  const order: MarkedLevel[] = ['critical', 'high', 'elevated', 'low'];
  const seen = new Set<string>();
  return [...(kind.bands?.(thresholds) ?? [])]
    .filter((b) => (seen.has(b.label) ? false : (seen.add(b.label), true)))
    .sort((a, b) => order.indexOf(a.level) - order.indexOf(b.level));
}

/** What the marks mean, above the table, in the numbers that apply to this patient. */
export function ReadingLegend({ kind, thresholds }: { kind: MeasurementKind; thresholds: ThresholdValues }) {
  const bands = legendBands(kind, thresholds);
  if (bands.length === 0) return null;
  return (
    <Stack
      direction="row"
      spacing={2}
      useFlexGap
      sx={{ flexWrap: 'wrap', alignItems: 'center', mb: 1 }}
      aria-label={PatientTexts.readingLegend}
      role="note"
    >
      <Typography variant="body2" color="text.secondary">
        {PatientTexts.readingLegend}:
      </Typography>
      {bands.map((b) => {
        const { Icon, color } = LEVEL_STYLE[b.level];
        return (
          <Box key={b.label} component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
            <Icon fontSize="small" sx={{ color }} aria-hidden />
            <Typography component="span" variant="body2">
              <b>{AlertTexts.levels[b.level]}</b> {b.label}
            </Typography>
          </Box>
        );
      })}
    </Stack>
  );
}
