import type { ChartBand } from '@rpm/contracts';
import type uPlot from 'uplot';

/** A band in the chart's own unit; `from`/`to` null: open towards the axis' end. */
export interface DrawnBand {
  from: number | null;
  to: number | null;
  level: ChartBand['level'] | 'target';
}

const BAND_COLOR: Record<DrawnBand['level'], string> = {
  target: 'rgba(46, 125, 50, 0.08)',
  elevated: 'rgba(237, 108, 2, 0.05)',
  high: 'rgba(237, 108, 2, 0.10)',
  low: 'rgba(35, 111, 214, 0.08)',
  critical: 'rgba(211, 47, 47, 0.12)',
};

/**
 * Horizontal bands drawn on the canvas before the series. They come from the kind's `bands`
 * (the classifier's thresholds), never from numbers of the chart's own.
 */
export function bandsPlugin(bands: readonly DrawnBand[]): uPlot.Plugin {
  return {
    hooks: {
      drawClear: (u) => {
        const { ctx, bbox } = u;
        ctx.save();
        for (const b of bands) {
          const top = b.to === null ? bbox.top : Math.max(bbox.top, u.valToPos(b.to, 'y', true));
          const bottom =
            b.from === null ? bbox.top + bbox.height : Math.min(bbox.top + bbox.height, u.valToPos(b.from, 'y', true));
          if (bottom <= top) continue;
          ctx.fillStyle = BAND_COLOR[b.level];
          ctx.fillRect(bbox.left, top, bbox.width, bottom - top);
        }
        ctx.restore();
      },
    },
  };
}
