import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import {
  ALERT_RULES,
  ALERT_SNOOZE_MAX_HOURS,
  AlertErrors,
  ALERT_RULE_INFO,
  ALERT_RULE_SEVERITY,
  ALERT_SEVERITIES,
  ALERT_SEVERITY_RANK,
  AlertSettingsBody,
  AlertTexts,
  DEFAULT_ALERT_ORGANIZATION_SETTINGS,
  ESCALATION_CONTACTS_MAX,
  ORGANIZATION_ONLY_THRESHOLDS,
  PatientThresholdsBody,
  RESOLUTION_REASONS,
  ResolveAlertBody,
  SYSTEM_RESOLUTION_REASONS,
  THRESHOLDS,
  THRESHOLD_KEYS,
  measurementKind,
} from './index.ts';

/** Every threshold left to the default: the PUT bodies carry every key (null: not set). */
const unsetThresholds = Object.fromEntries(THRESHOLD_KEYS.map((k) => [k, null]));
const patientBody = Object.fromEntries(
  THRESHOLD_KEYS.filter((k) => !ORGANIZATION_ONLY_THRESHOLDS.includes(k)).map((k) => [k, null]),
);
const settingsBody = {
  ...unsetThresholds,
  bp_window_days: null,
  bp_window_min_readings: null,
  stale_days: null,
  escalation_minutes: null,
  escalation_contact_ids: [],
};

describe('the alert rules', () => {
  it('give every rule a kind of the registry (or none) and a severity, and words', () => {
    expect(Object.keys(ALERT_RULE_INFO).sort()).toEqual([...ALERT_RULES].sort());
    for (const rule of ALERT_RULES) {
      const { kind, severity } = ALERT_RULE_INFO[rule];
      if (kind !== null) expect(measurementKind(kind), rule).toBeDefined();
      expect(ALERT_SEVERITIES).toContain(severity);
      expect(ALERT_RULE_SEVERITY[rule]).toBe(severity);
      expect(AlertTexts.rules[rule], rule).toBeTruthy();
    }
    expect(ALERT_RULE_INFO.stale_data.kind).toBeNull();
  });

  it('makes the one-reading dangers critical, and ranks critical first', () => {
    for (const rule of [
      'bp_crisis',
      'bp_low_severe',
      'glucose_very_low',
      'glucose_very_high',
      'spo2_critical',
    ] as const) {
      expect(ALERT_RULE_SEVERITY[rule], rule).toBe('critical');
    }
    expect([...ALERT_SEVERITIES].sort((a, b) => ALERT_SEVERITY_RANK[a] - ALERT_SEVERITY_RANK[b])).toEqual([
      'critical',
      'warning',
      'info',
    ]);
  });
});

describe('PatientThresholdsBody', () => {
  it('accepts every threshold left to the default, or set within its range', () => {
    expect(Value.Check(PatientThresholdsBody, patientBody)).toBe(true);
    for (const t of THRESHOLDS.filter((d) => !ORGANIZATION_ONLY_THRESHOLDS.includes(d.key))) {
      for (const v of [t.min, t.default, t.max])
        expect(Value.Check(PatientThresholdsBody, { ...patientBody, [t.key]: v }), `${t.key} ${v}`).toBe(true);
    }
  });

  it('refuses a value out of range, or with more decimals than the threshold has', () => {
    for (const t of THRESHOLDS.filter((d) => !ORGANIZATION_ONLY_THRESHOLDS.includes(d.key))) {
      const step = 10 ** -t.decimals;
      for (const v of [t.min - step, t.max + step, t.default + step / 2, '90', Number.NaN]) {
        expect(Value.Check(PatientThresholdsBody, { ...patientBody, [t.key]: v }), `${t.key} ${v}`).toBe(false);
      }
    }
    // Tenths are fine where the threshold has them (not float noise: 0.3 is a multiple of 0.1).
    expect(Value.Check(PatientThresholdsBody, { ...patientBody, weight_gain_day: 0.3, fever: 38.3 })).toBe(true);
    expect(Value.Check(PatientThresholdsBody, { ...patientBody, fever: 38.25 })).toBe(false);
    expect(Value.Check(PatientThresholdsBody, { ...patientBody, stage2_systolic: 135.5 })).toBe(false);
  });

  it('refuses the COPD target (an organization setting) and unknown keys', () => {
    expect(Value.Check(PatientThresholdsBody, { ...patientBody, spo2_target_copd: 88 })).toBe(false);
    expect(Value.Check(PatientThresholdsBody, { ...patientBody, spo2_target_copd: null })).toBe(false);
    expect(Value.Check(PatientThresholdsBody, { ...patientBody, bp_high_systolic: 140 })).toBe(false);
    expect(Value.Check(PatientThresholdsBody, { ...patientBody, stale_days: 3 })).toBe(false);
  });
});

describe('AlertSettingsBody', () => {
  it('accepts everything left to the default, and every threshold and setting in range', () => {
    expect(Value.Check(AlertSettingsBody, settingsBody)).toBe(true);
    for (const t of THRESHOLDS) {
      for (const v of [t.min, t.default, t.max])
        expect(Value.Check(AlertSettingsBody, { ...settingsBody, [t.key]: v }), `${t.key} ${v}`).toBe(true);
    }
    expect(Value.Check(AlertSettingsBody, { ...settingsBody, ...DEFAULT_ALERT_ORGANIZATION_SETTINGS })).toBe(true);
    expect(Value.Check(AlertSettingsBody, { ...settingsBody, spo2_target_copd: 90 })).toBe(true);
    expect(Value.Check(AlertSettingsBody, { ...settingsBody, bp_window_days: 30, escalation_minutes: 1440 })).toBe(
      true,
    );
    const contacts = Array.from({ length: ESCALATION_CONTACTS_MAX }, (_, i) => i + 1);
    expect(Value.Check(AlertSettingsBody, { ...settingsBody, escalation_contact_ids: contacts })).toBe(true);
  });

  it('refuses unknown keys', () => {
    expect(Value.Check(AlertSettingsBody, { ...settingsBody, bp_high_systolic: 140 })).toBe(false);
    expect(Value.Check(AlertSettingsBody, { ...settingsBody, escalation_emails: [] })).toBe(false);
  });

  it('refuses out-of-range thresholds and settings', () => {
    for (const t of THRESHOLDS) {
      const step = 10 ** -t.decimals;
      for (const v of [t.min - step, t.max + step, t.default + step / 2]) {
        expect(Value.Check(AlertSettingsBody, { ...settingsBody, [t.key]: v }), `${t.key} ${v}`).toBe(false);
      }
    }
    for (const [key, bad] of [
      ['bp_window_days', 0],
      ['bp_window_days', 31],
      ['bp_window_min_readings', 0],
      ['bp_window_min_readings', 61],
      ['stale_days', 0],
      ['stale_days', 91],
      ['escalation_minutes', 0],
      ['escalation_minutes', 1441],
      ['escalation_minutes', 30.5],
    ] as const) {
      expect(Value.Check(AlertSettingsBody, { ...settingsBody, [key]: bad }), `${key} ${bad}`).toBe(false);
    }
  });

  it('refuses repeated, invalid or too many escalation contacts', () => {
    const too = Array.from({ length: ESCALATION_CONTACTS_MAX + 1 }, (_, i) => i + 1);
    expect(Value.Check(AlertSettingsBody, { ...settingsBody, escalation_contact_ids: too })).toBe(false);
    expect(Value.Check(AlertSettingsBody, { ...settingsBody, escalation_contact_ids: [3, 3] })).toBe(false);
    expect(Value.Check(AlertSettingsBody, { ...settingsBody, escalation_contact_ids: [0] })).toBe(false);
    const { escalation_contact_ids: _, ...without } = settingsBody;
    expect(Value.Check(AlertSettingsBody, without)).toBe(false);
  });
});

describe('ResolveAlertBody', () => {
  const body = { reason: 'reached_patient', note: 'Called; took the evening dose late.' };

  it('accepts each reason a person may choose, with a note and optional minutes', () => {
    for (const reason of RESOLUTION_REASONS)
      expect(Value.Check(ResolveAlertBody, { ...body, reason }), reason).toBe(true);
    expect(Value.Check(ResolveAlertBody, { ...body, minutes: 1 })).toBe(true);
    expect(Value.Check(ResolveAlertBody, { ...body, minutes: 1440 })).toBe(true);
  });

  it('requires a reason from RESOLUTION_REASONS (not the portal-only ones)', () => {
    const { reason: _, ...withoutReason } = body;
    expect(Value.Check(ResolveAlertBody, withoutReason)).toBe(false);
    for (const reason of [...SYSTEM_RESOLUTION_REASONS, 'fixed', '', null]) {
      expect(Value.Check(ResolveAlertBody, { ...body, reason }), String(reason)).toBe(false);
    }
  });

  it('requires a note with some text, and whole minutes in range', () => {
    const { note: _, ...withoutNote } = body;
    expect(Value.Check(ResolveAlertBody, withoutNote)).toBe(false);
    expect(Value.Check(ResolveAlertBody, { ...body, note: '' })).toBe(false);
    expect(Value.Check(ResolveAlertBody, { ...body, note: '   ' })).toBe(false);
    for (const minutes of [0, 1441, 2.5])
      expect(Value.Check(ResolveAlertBody, { ...body, minutes }), String(minutes)).toBe(false);
    expect(Value.Check(ResolveAlertBody, { ...body, extra: 1 })).toBe(false);
  });
});

describe('AlertErrors', () => {
  it('names the longest snooze the schema allows', () => {
    expect(AlertErrors.snoozeTooLong).toContain(`${ALERT_SNOOZE_MAX_HOURS} hours`);
  });
});
