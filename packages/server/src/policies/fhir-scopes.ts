/**
 * What a FHIR interaction needs, in SMART v2 scope terms (`system/Observation.rs`): the resource
 * type and one of the interaction letters c (create), r (read), u (update), d (delete), s (search).
 * Every FHIR route names its need; a SMART client is allowed only what its granted scopes cover.
 */
export type FhirResourceType = 'Patient' | 'Observation' | 'Device' | 'DiagnosticReport' | 'Group';
export type FhirInteraction = 'c' | 'r' | 'u' | 'd' | 's';
export interface FhirScopeNeed {
  resourceType: FhirResourceType;
  interaction: FhirInteraction;
}

import type { FhirReader } from './ingestion.ts';

/** SMART v2 orders the letters so: `cruds`. */
const LETTERS: readonly FhirInteraction[] = ['c', 'r', 'u', 'd', 's'];
/** SMART v1 spellings, accepted in requests and read as their v2 equivalents. */
const V1_PERMISSIONS: Record<string, FhirInteraction[]> = {
  read: ['r', 's'],
  write: ['c', 'u', 'd'],
  '*': LETTERS.slice(),
};

/** A system scope taken apart: `system/Observation.rs` → Observation with r and s; `*` for every type. */
export interface ParsedScope {
  resourceType: string;
  interactions: Set<FhirInteraction>;
}

/**
 * Parses one `system/` scope (v2 letters, or the v1 `.read`/`.write`/`.*`); null for anything
 * else (patient/ or user/ scopes, launch, openid, query parameters, unknown letters or order).
 * A client asking for such a scope is simply not granted it.
 */
export function parseSystemScope(scope: string): ParsedScope | null {
  const m = /^system\/(\*|[A-Z][A-Za-z]{1,63})\.([a-z*]+)$/.exec(scope);
  if (!m) return null;
  const [, resourceType, permission] = m as unknown as [string, string, string];
  const v1 = V1_PERMISSIONS[permission];
  if (v1) return { resourceType, interactions: new Set(v1) };
  // v2: a non-empty subsequence of c r u d s, in that order.
  if (!/^c?r?u?d?s?$/.test(permission) || permission === '') return null;
  return { resourceType, interactions: new Set(permission.split('') as FhirInteraction[]) };
}

export const formatScope = (resourceType: string, interactions: Iterable<FhirInteraction>): string => {
  const set = new Set(interactions);
  return `system/${resourceType}.${LETTERS.filter((l) => set.has(l)).join('')}`;
};

/** Whether granted scopes (v2 strings as stored with a token) cover a need; `system/*` covers every type. */
export function scopesCover(scopes: readonly string[], need: FhirScopeNeed): boolean {
  return scopes.some((s) => {
    const p = parseSystemScope(s);
    return (
      p !== null &&
      (p.resourceType === '*' || p.resourceType === need.resourceType) &&
      p.interactions.has(need.interaction)
    );
  });
}

/**
 * The scopes a token gets: each requested scope cut down to what the client's allowed scopes
 * permit for that resource type (SMART lets a server grant less than asked), in v2 spelling. A
 * requested `system/*.rs` becomes one scope per allowed type. Empty when nothing requested is
 * allowed (the token endpoint then answers invalid_scope).
 */
export function grantScopes(requested: readonly string[], allowed: readonly string[]): string[] {
  const allowedByType = new Map<string, Set<FhirInteraction>>();
  for (const p of allowed.map(parseSystemScope)) {
    if (!p) continue;
    const set = allowedByType.get(p.resourceType) ?? new Set<FhirInteraction>();
    for (const l of p.interactions) set.add(l);
    allowedByType.set(p.resourceType, set);
  }
  const lettersFor = (type: string, want: Set<FhirInteraction>) =>
    [...want].filter((l) => allowedByType.get(type)?.has(l) || allowedByType.get('*')?.has(l));
  const granted: string[] = [];
  for (const scope of requested) {
    const want = parseSystemScope(scope);
    if (!want) continue;
    const types = want.resourceType === '*' ? [...allowedByType.keys()] : [want.resourceType];
    for (const type of types) {
      const letters = lettersFor(type, want.interactions);
      if (letters.length > 0) granted.push(formatScope(type, letters));
    }
  }
  return [...new Set(granted)];
}

/** The scope a need names, for refusals: `system/Observation.r`. */
export const scopeOfNeed = (need: FhirScopeNeed): string => formatScope(need.resourceType, [need.interaction]);

/**
 * Whether a reader's grant covers a further need (a bulk export checks each exported type).
 * Staff follow the portal's own rules per patient instead of scopes; a SMART client has exactly
 * its token's scopes; a static source key reads nothing (read keys are retired).
 */
export function readerHasScope(reader: FhirReader, need: FhirScopeNeed): boolean {
  if (reader.kind === 'staff') return true;
  if (reader.kind === 'client') return scopesCover(reader.client.scopes, need);
  return false;
}
