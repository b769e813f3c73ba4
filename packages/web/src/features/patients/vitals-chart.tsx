// Loaded with import() only when the Figure view is chosen, so uPlot and its CSS never weigh on
// the rest of the portal.
import 'uplot/dist/uPlot.min.css';
import { Box } from '@mui/material';
import { PatientTexts, type VitalSeries } from '@rpm/contracts';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { formatTimestamp } from '../../lib/format-timestamp.ts';

interface Props {
  series: VitalSeries;
  timezone: string;
}

/**
 * Systolic and diastolic as lines on a time axis. uPlot draws to a canvas, so thousands of
 * points stay smooth; the legend shows the date and both values of the point under the cursor.
 * The chart is rebuilt when the time zone changes, since axis labels depend on it.
 */
export default function VitalsChart({ series, timezone }: Props) {
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const width = () => Math.max(320, el.clientWidth || 800);
    const opts: uPlot.Options = {
      width: width(),
      height: 320,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), timezone),
      cursor: { drag: { x: true, y: false } },
      scales: { x: { time: true } },
      series: [
        { label: PatientTexts.date, value: (_u, v) => (v === null ? '—' : formatTimestamp(new Date(v * 1000).toISOString(), timezone)) },
        { label: PatientTexts.systolic, stroke: '#d32f2f', width: 2, value: (_u, v) => (v === null ? '—' : String(v)) },
        { label: PatientTexts.diastolic, stroke: '#236fd6', width: 2, value: (_u, v) => (v === null ? '—' : String(v)) },
      ],
      axes: [{}, { label: 'mmHg' }],
    };
    const plot = new uPlot(opts, [series.t, series.systolic, series.diastolic], el);
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(() => plot.setSize({ width: width(), height: 320 })) : null;
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      plot.destroy();
    };
  }, [series, timezone]);

  return <Box ref={host} role="img" aria-label={PatientTexts.chartLabel} data-timezone={timezone} sx={{ width: '100%' }} />;
}
