import type { GuidelineSource } from '../texts/guidelines.ts';
import type { ThresholdValues } from './thresholds.ts';

/**
 * The shape of one measurement kind. Each kind is one file beside this one and is listed once in
 * `registry.ts`; every layer (ingestion, FHIR, storage, billing, the web's panels and marks) reads
 * the kind from there instead of knowing blood pressure by name.
 */

/** The device types the portal assigns; each kind names the one that measures it. */
export type DeviceType = 'cuff' | 'scale' | 'glucometer' | 'pulse_oximeter' | 'thermometer';

/**
 * A table mark: how one reading compares with the kind's guidance (or the patient's own
 * thresholds). `elevated` is worth seeing but not an alert by itself (blood-pressure stage 1,
 * glucose above target).
 */
export type MeasurementLevel = 'normal' | 'elevated' | 'low' | 'high' | 'critical';

export interface Classification {
  level: MeasurementLevel;
  /** The words shown beside the mark, e.g. "At or above 135/85 (stage 2)". Empty for normal. */
  label: string;
  /**
   * The kind's own name for the band the value falls in (e.g. 'stage2', 'crisis', 'level1'):
   * what the alert rules match on, so the table, the chart and the alerts cannot disagree.
   * 'normal' when nothing applies.
   */
  category: string;
}

export interface ComponentDefinition {
  /** The key of this value in an observation's `components` (e.g. 'systolic'). */
  code: string;
  /** Shown as a column heading (e.g. 'Systolic'). */
  label: string;
  /** LOINC code of the component (HL7 vital-signs profile). */
  loinc: string;
  /** The UCUM unit values are stored in (canonical), e.g. 'mm[Hg]', 'kg', 'mg/dL', '%', 'Cel', '/min'. */
  ucum: string;
  /** Plausible range in the canonical unit; outside it a reading is refused (400, nothing stored). */
  range: { min: number; max: number };
  /** Decimal places kept in storage (canonical unit). */
  decimals: number;
  /** True when a reading may come without this component (a cuff's pulse, an oximeter's pulse). */
  optional?: boolean;
}

/** A unit a clinic may choose for display and that senders may use (kg or lb, mg/dL or mmol/L, °C or °F). */
export interface UnitChoice {
  /** UCUM code, e.g. '[lb_av]', 'mmol/L', '[degF]'. */
  ucum: string;
  /** Shown to people, e.g. 'lb', 'mmol/L', '°F'. */
  label: string;
  /** Decimal places shown. */
  decimals: number;
  toCanonical(value: number): number;
  fromCanonical(value: number): number;
}

/** A metric name a device vendor sends, and which component of which kind it fills. */
export interface VendorMetric {
  vendor: 'tenovi';
  metric: string;
  /** The component its value_1 fills (value_2 fills `component2` when given). */
  component: string;
  component2?: string;
  /** UCUM unit the vendor sends value_1 in (converted to canonical on the way in). */
  unit: string;
}

export interface ClassifyContext {
  /** The patient's programs (e.g. 'copd' changes the oxygen target, BTS 2017). */
  programs?: readonly string[];
  /**
   * The thresholds that apply to the patient (`effectiveThresholds`: the patient's own, else the
   * organization's, else the defaults). Without them, the defaults, with the programs applied.
   */
  thresholds?: ThresholdValues;
}

export interface MeasurementKind {
  /** The stored kind, e.g. 'blood_pressure'. Lower-case letters and underscores. */
  kind: string;
  /** Shown as the panel title, e.g. 'Blood pressure'. */
  label: string;
  /** LOINC code of the observation (the panel code for multi-component kinds). */
  loinc: string;
  /** Other codes accepted on input (e.g. glucose by glucometer 41653-7). */
  alternateLoinc?: readonly string[];
  /** The FHIR category (always 'vital-signs' for the vital-signs profile kinds, 'laboratory' for glucose). */
  category: 'vital-signs' | 'laboratory';
  components: readonly ComponentDefinition[];
  /** The component the panel's "latest" and the chart follow first. */
  primary: string;
  /** Display units a clinic may choose for the primary component(s); the first is the default. */
  unitChoices: readonly UnitChoice[];
  deviceType: DeviceType;
  /** Counts as physiologic data for billing (CPT 99454 days). */
  physiologic: boolean;
  vendorMetrics: readonly VendorMetric[];
  /** The guidance the classification follows (keys of GuidelineSources), cited on the settings page. */
  guidance: readonly GuidelineSource[];
  /**
   * The one classification of a value set of this kind: one reading for the table marks and the
   * one-reading rules, a window's mean for the averaged rules, the bands of the chart.
   */
  classify(values: Readonly<Record<string, number>>, context?: ClassifyContext): Classification;
  /** The bands the chart draws for the primary component(s), from the same thresholds. */
  bands?(thresholds: ThresholdValues): readonly ChartBand[];
}

/** A band the chart shades: values from `from` up to `to` (either open) are at `level`. */
export interface ChartBand {
  component: string;
  level: Exclude<MeasurementLevel, 'normal'>;
  from: number | null;
  to: number | null;
  label: string;
}

/** Nothing to mark. */
export const NORMAL: Classification = Object.freeze({ level: 'normal', label: '', category: 'normal' });
