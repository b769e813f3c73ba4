/**
 * How src/db/types.ts is generated, shared by the generator script and the test that checks the
 * committed file is current. The mappings follow pool.ts's parsers: bigint comes back as a number,
 * DATE as 'YYYY-MM-DD'. The migrations' bookkeeping table is not the application's, and the month
 * tables of schema partitions (migration 1000) are reached only through their parents.
 */
export function codegenArgs(url: string): string[] {
  return [
    '--dialect',
    'postgres',
    '--url',
    url,
    '--out-file',
    'src/db/types.ts',
    '--date-parser',
    'string',
    '--type-mapping',
    JSON.stringify({ int8: 'number' }),
    '--exclude-pattern',
    '{public.schema_migrations,partitions.*}',
    '--log-level',
    'error',
  ];
}
