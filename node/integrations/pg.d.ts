/** The part of node-postgres' `types` this uses. */
export interface PgTypes {
  setTypeParser(oid: number, parser: (text: string) => unknown): void;
  getTypeParser(oid: number, format?: 'text'): (text: string) => any;
}
/** Makes pg read int8 and int8[] columns as BigInt; returns a function restoring the old parsers. */
export function useBigIntIds(pg: { types: PgTypes } | PgTypes): () => void;
