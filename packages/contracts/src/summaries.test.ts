import { describe, expect, it } from 'vitest';
import { monthOf, shiftMonth, summaryMonthLabel, summaryPdfFileName, patientSummaryPdfPath } from './index.ts';

describe('summary months', () => {
  it('shifts across a year', () => {
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
  });
  it("names an instant's month in a time zone", () => {
    // 1 March 04:30 UTC is still February in New York.
    expect(monthOf(new Date('2026-03-01T04:30:00Z'), 'America/New_York')).toBe('2026-02');
    expect(monthOf(new Date('2026-03-01T04:30:00Z'), 'Europe/Berlin')).toBe('2026-03');
  });
  it('labels a month in words', () => {
    expect(summaryMonthLabel('2026-03')).toBe('March 2026');
  });
  it('asks for A4 by default and Letter by name', () => {
    expect(patientSummaryPdfPath(7, '2026-03')).toBe('/api/patients/7/summary.pdf?month=2026-03');
    expect(patientSummaryPdfPath(7, '2026-03', 'letter')).toBe('/api/patients/7/summary.pdf?month=2026-03&paper=letter');
    expect(summaryPdfFileName(7, '2026-03')).toBe('summary-7-2026-03.pdf');
  });
});
