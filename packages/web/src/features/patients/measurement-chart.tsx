// Loaded with import() when a measurement panel first draws its chart, so uPlot and its CSS never
// weigh on the rest of the portal (as vitals-chart.tsx).
import 'uplot/dist/uPlot.min.css';
import { Box } from '@mui/material';
import { PatientTexts } from '@rpm/contracts';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { bandsPlugin, type DrawnBand } from './chart-bands.ts';

/** One line of the chart: a component's values in its display unit, aligned with `t`. */
export interface ChartLine {
  label: string;
  values: (number | null)[];
}

interface Props {
  /** Measurement times, epoch seconds, oldest first. */
  t: number[];
  lines: ChartLine[];
  /** The y axis' unit, e.g. 'lb'. */
  unit: string;
  timezone: string;
  /** The chart's accessible name; the panel's table beside it is the accessible alternative. */
  label: string;
  /** The kind's bands (its classifier's, with the patient's thresholds) in the display unit. */
  bands?: readonly DrawnBand[];
}

const COLORS = ['#236fd6', '#d32f2f', '#2e7d32', '#8e24aa'];
const HEIGHT = 220;

/** A kind's trend: one line per component on a time axis, rebuilt when the time zone changes. */
export default function MeasurementChart({ t, lines, unit, timezone, label, bands }: Props) {
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const width = () => Math.max(280, el.clientWidth || 600);
    const show = (v: number | null | undefined) => (v === null || v === undefined ? '—' : String(v));
    const opts: uPlot.Options = {
      plugins: bands && bands.length > 0 ? [bandsPlugin(bands)] : [],
      width: width(),
      height: HEIGHT,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), timezone),
      cursor: { drag: { x: true, y: false } },
      scales: { x: { time: true } },
      series: [
        {
          label: PatientTexts.date,
          value: (_u, v) => (v === null ? '—' : formatTimestamp(new Date(v * 1000).toISOString(), timezone)),
        },
        ...lines.map((line, i) => ({
          label: line.label,
          stroke: COLORS[i % COLORS.length],
          width: 2,
          spanGaps: true,
          value: (_u: uPlot, v: number | null) => show(v),
        })),
      ],
      axes: [{}, { label: unit }],
    };
    const plot = new uPlot(opts, [t, ...lines.map((l) => l.values)], el);
    const observer =
      typeof ResizeObserver === 'function'
        ? new ResizeObserver(() => plot.setSize({ width: width(), height: HEIGHT }))
        : null;
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      plot.destroy();
    };
  }, [t, lines, unit, timezone, bands]);

  return (
    <Box
      ref={host}
      role="img"
      aria-label={label}
      data-timezone={timezone}
      // The drawn bands, readable outside the canvas (end-to-end checks compare them with the marks).
      data-bands={bands ? JSON.stringify(bands) : undefined}
      sx={{ width: '100%', minWidth: 0 }}
    />
  );
}
