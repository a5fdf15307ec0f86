/**
 * Every stage name of an explain answer, wherever the server nests them (MongoDB and DocumentDB's gateway nest
 * them differently), in document order. `withIndex` spells an index stage as `IXSCAN(name)`.
 */
export function planStages(plan: unknown, opts: { withIndex?: boolean } = {}): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.stage === 'string')
        out.push(opts.withIndex && o.indexName ? `${o.stage}(${o.indexName})` : o.stage);
      for (const [k, x] of Object.entries(o)) if (k !== 'stage') walk(x);
    }
  };
  walk(plan);
  return out;
}
