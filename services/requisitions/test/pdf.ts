import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The text of a PDF, extracted with poppler's pdftotext (layout kept). */
export async function pdfText(pdf: Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pdftext-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdftotext', ['-layout', file, '-']);
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Page count and page size from poppler's pdfinfo. */
export async function pdfInfo(pdf: Buffer): Promise<{ pages: number; pageSize: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pdfinfo-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdfinfo', [file]);
    return {
      pages: Number(/Pages:\s+(\d+)/.exec(stdout)?.[1] ?? 0),
      pageSize: /Page size:\s+(.+)/.exec(stdout)?.[1]?.trim() ?? '',
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
