// Loaded with import() only when the Figure view is chosen, so uPlot and its CSS never weigh on
// the rest of the portal.
import 'uplot/dist/uPlot.min.css';
import { Box } from '@mui/material';
import { AlertTexts, PatientTexts, bloodPressure, type AlertThresholdValues, type VitalSeries } from '@rpm/contracts';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { bandsPlugin, type DrawnBand } from './chart-bands.ts';

interface Props {
  series: VitalSeries;
  timezone: string;
  /** The patient's thresholds: drawn as bands behind the lines (target, and the classifier's bands). */
  thresholds?: AlertThresholdValues;
  /** Measurement times (epoch seconds) of readings that raised an alert: marked on the systolic line. */
  alertTimes?: number[];
}

const WEEK_SECONDS = 7 * 24 * 3600;

/** The mean of the readings of the 7 days up to each reading (a trailing window, so it never looks ahead). */
export function sevenDayAverage(t: number[], values: number[]): number[] {
  const out: number[] = [];
  let start = 0;
  let sum = 0;
  for (let i = 0; i < t.length; i++) {
    sum += values[i]!;
    while (t[start]! < t[i]! - WEEK_SECONDS) sum -= values[start++]!;
    out.push(Math.round((sum / (i - start + 1)) * 10) / 10);
  }
  return out;
}

/**
 * The bands behind the lines: the target, then the blood-pressure classifier's own bands for
 * systolic (the line the alert marks sit on), so the chart and the table marks cannot disagree.
 */
function vitalsBands(t: AlertThresholdValues): DrawnBand[] {
  return [
    { from: null, to: t.target_systolic, level: 'target' },
    ...(bloodPressure.bands?.(t) ?? []).filter((b) => b.component === 'systolic'),
  ];
}

/**
 * Systolic and diastolic as lines on a time axis. uPlot draws to a canvas, so thousands of
 * points stay smooth; the legend shows the date and both values of the point under the cursor.
 * The chart is rebuilt when the time zone changes, since axis labels depend on it.
 */
export default function VitalsChart({ series, timezone, thresholds, alertTimes }: Props) {
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const width = () => Math.max(320, el.clientWidth || 800);
    const marked = new Set(alertTimes ?? []);
    const show = (v: number | null | undefined) => (v === null || v === undefined ? '—' : String(v));
    const opts: uPlot.Options = {
      plugins: thresholds ? [bandsPlugin(vitalsBands(thresholds))] : [],
      width: width(),
      height: 320,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), timezone),
      cursor: { drag: { x: true, y: false } },
      scales: { x: { time: true } },
      series: [
        {
          label: PatientTexts.date,
          value: (_u, v) => (v === null ? '—' : formatTimestamp(new Date(v * 1000).toISOString(), timezone)),
        },
        { label: PatientTexts.systolic, stroke: '#d32f2f', width: 2, value: (_u, v) => (v === null ? '—' : String(v)) },
        {
          label: PatientTexts.diastolic,
          stroke: '#236fd6',
          width: 2,
          value: (_u, v) => (v === null ? '—' : String(v)),
        },
        {
          label: `${AlertTexts.chartAverage} (${PatientTexts.systolic})`,
          stroke: '#8e24aa',
          width: 1.5,
          dash: [6, 4],
          points: { show: false },
          value: (_u, v) => show(v),
        },
        {
          label: `${AlertTexts.chartAverage} (${PatientTexts.diastolic})`,
          stroke: '#00897b',
          width: 1.5,
          dash: [6, 4],
          points: { show: false },
          value: (_u, v) => show(v),
        },
        {
          label: AlertTexts.chartAlertMark,
          stroke: '#b71c1c',
          fill: '#b71c1c',
          paths: () => null,
          points: { show: true, size: 9, stroke: '#b71c1c', fill: '#ffffff', width: 2 },
          value: (_u, v) => show(v),
        },
      ],
      axes: [{}, { label: 'mmHg' }],
    };
    const avgSys = sevenDayAverage(series.t, series.systolic);
    const avgDia = sevenDayAverage(series.t, series.diastolic);
    const marks = series.t.map((ts, i) => (marked.has(ts) ? series.systolic[i]! : null));
    const plot = new uPlot(opts, [series.t, series.systolic, series.diastolic, avgSys, avgDia, marks], el);
    const observer =
      typeof ResizeObserver === 'function'
        ? new ResizeObserver(() => plot.setSize({ width: width(), height: 320 }))
        : null;
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      plot.destroy();
    };
  }, [series, timezone, thresholds, alertTimes]);

  return (
    <Box
      ref={host}
      role="img"
      aria-label={PatientTexts.chartLabel}
      data-timezone={timezone}
      // The drawn bands, readable outside the canvas (end-to-end checks compare them with the marks).
      data-bands={thresholds ? JSON.stringify(vitalsBands(thresholds)) : undefined}
      sx={{ width: '100%' }}
    />
  );
}
