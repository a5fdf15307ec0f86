import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Model } from 'mongoose';
import type { Audited } from '../models/common';
import type { DiagnosisTypeDoc } from '../models/codes';
import { diagnosisTypeId } from '../ids';
import {
  chooseMode,
  existingByKey,
  ImportFormatError,
  KeyedWriter,
  stampRevision,
  type ImportOptions,
  type ImportResult,
} from './common';

export const ONCOTREE_DATA_SET = 'oncotree';

/**
 * OncoTree importer. Reads the flat JSON array of ../shared/data/oncotree.json (one object a node:
 * {code, name, mainType, tissue, parent, level}, depth-first pre-order) and stores each node as a
 * diagnosis type with its parentCode, its path text ('Name (CODE) -> ...' from the root's children down,
 * '' for the root) and whether it has children. The tree is checked before anything is written.
 */
export const ONCOTREE_ROOT = 'TISSUE';

export const oncoTreeNodeSchema = z.object({
  code: z.string().min(1).max(64),
  name: z.string().min(1),
  mainType: z.string().nullable(),
  tissue: z.string().nullable(),
  parent: z.string().nullable(),
  level: z.number().int().min(0),
});
export type OncoTreeNode = z.infer<typeof oncoTreeNodeSchema>;

/** A diagnosis node as the importer writes it: the stored record without its audit fields. */
export type DiagnosisTypeRow = Omit<DiagnosisTypeDoc, keyof Audited>;

/** Parse and check the JSON text (or an already parsed value). Errors name the node's position (1-based). */
export function parseOncoTree(input: string | unknown): OncoTreeNode[] {
  let data: unknown = input;
  if (typeof input === 'string') {
    try {
      data = JSON.parse(input);
    } catch (err) {
      throw new ImportFormatError(`not valid JSON: ${(err as Error).message}`, 1);
    }
  }
  if (!Array.isArray(data)) throw new ImportFormatError('expected a JSON array of OncoTree nodes', 1);
  return data.map((n, i) => {
    const r = oncoTreeNodeSchema.safeParse(n);
    if (!r.success) {
      const issue = r.error.issues[0];
      throw new ImportFormatError(
        `node ${i + 1}: ${issue.path.join('.') || 'node'}: ${issue.message}`,
        i + 1,
      );
    }
    return r.data;
  });
}

/** The path entry of one node, as the requisition's octDxBreadCrumb shows it. */
export const pathEntry = (n: { name: string; code: string }) => `${n.name} (${n.code})`;
export const PATH_SEPARATOR = ' -> ';

/**
 * Check the tree (one root, unique codes, parents exist, level = depth, no cycles) and compute each node's
 * path and childExists. Order is kept.
 */
export function buildDiagnosisTypes(nodes: OncoTreeNode[]): DiagnosisTypeRow[] {
  const byCode = new Map<string, OncoTreeNode>();
  nodes.forEach((n, i) => {
    if (byCode.has(n.code)) throw new ImportFormatError(`duplicate code ${n.code}`, i + 1);
    byCode.set(n.code, n);
  });
  const roots = nodes.filter((n) => n.parent === null);
  if (roots.length !== 1)
    throw new ImportFormatError(`expected exactly one root node, found ${roots.length}`, 1);
  const withChildren = new Set<string>();
  nodes.forEach((n, i) => {
    if (n.parent === null) {
      if (n.level !== 0) throw new ImportFormatError(`root ${n.code} must have level 0`, i + 1);
      return;
    }
    const parent = byCode.get(n.parent);
    if (!parent) throw new ImportFormatError(`${n.code}: unknown parent ${n.parent}`, i + 1);
    if (n.level !== parent.level + 1)
      throw new ImportFormatError(`${n.code}: level ${n.level} is not its parent's level + 1`, i + 1);
    withChildren.add(n.parent);
  });
  // levels strictly increase from parent to child, so there is no cycle; paths are memoised top-down
  const paths = new Map<string, string>();
  const pathOf = (n: OncoTreeNode): string => {
    const hit = paths.get(n.code);
    if (hit !== undefined) return hit;
    let p: string;
    if (n.parent === null) p = '';
    else {
      const parentPath = pathOf(byCode.get(n.parent)!);
      p = parentPath ? `${parentPath}${PATH_SEPARATOR}${pathEntry(n)}` : pathEntry(n);
    }
    paths.set(n.code, p);
    return p;
  };
  return nodes.map((n) => ({
    code: n.code,
    name: n.name,
    mainType: n.mainType,
    tissue: n.tissue,
    parentCode: n.parent,
    level: n.level,
    path: pathOf(n),
    childExists: withChildren.has(n.code),
  }));
}

/**
 * Read, check and import an OncoTree file (path) or parsed nodes into diagnosis_types: insertMany batches into
 * an empty collection, or (upsert mode) the difference against what is stored: new nodes inserted, changed
 * nodes updated by _id, nodes the release dropped soft-deleted (old requisitions keep their text).
 */
export async function importOncoTree(
  model: Model<DiagnosisTypeDoc>,
  input: string | OncoTreeNode[],
  opts: ImportOptions = {},
): Promise<ImportResult> {
  const started = Date.now();
  const nodes = typeof input === 'string' ? parseOncoTree(await readFile(input, 'utf8')) : input;
  const rows = buildDiagnosisTypes(nodes);
  await model.init(); // the collection and its unique index exist before the first write
  const collection = model.collection;
  const mode = await chooseMode(collection, opts.mode);
  const fields = [
    'code',
    'name',
    'mainType',
    'tissue',
    'parentCode',
    'level',
    'path',
    'childExists',
  ] as const;
  const existing = mode === 'upsert' ? await existingByKey(collection, 'code', [...fields]) : new Map();
  const result: ImportResult = {
    read: rows.length,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    removed: 0,
    mode,
    ms: 0,
  };
  const writer = new KeyedWriter<DiagnosisTypeRow & Record<string, unknown>>(collection, {
    mode,
    batchSize: opts.batchSize ?? 1000,
    by: opts.by ?? 'import',
    idOf: (r) => diagnosisTypeId(r.code),
    keyOf: (r) => r.code,
    existing,
    fields: [...fields],
    result,
    onBatch: () =>
      opts.onProgress?.({
        read: rows.length,
        written: result.inserted + result.updated + result.unchanged,
        batches: writer.batches,
      }),
  });
  for (const r of rows) await writer.write({ ...r });
  await writer.flush();
  if (mode === 'upsert') {
    const codes = new Set(rows.map((r) => r.code));
    for (const [code, prev] of existing) if (!codes.has(code)) await writer.remove(prev);
  }
  if (result.inserted + result.updated + (result.removed ?? 0) > 0)
    await stampRevision(model, ONCOTREE_DATA_SET, rows.length);
  result.ms = Date.now() - started;
  return result;
}
