import type { ProgramInfo } from '@rpm/contracts';
import type { ProgramRow } from './programs.repository.ts';

export function presentProgram(row: ProgramRow): ProgramInfo {
  return { id: row.id, label: row.label, kinds: [...row.kinds], built_in: row.built_in };
}
