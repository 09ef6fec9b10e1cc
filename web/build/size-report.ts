import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Source maps are left out: only developer tools fetch them, and brotli at level 11 on them took most of the build. */
const COMPRESSIBLE = /\.(js|css|html|svg|json|wasm)$/;

export interface ReportOptions {
  initialBudgetBytes: number;
}

/**
 * After a build: writes `.br` and `.gz` beside every text asset (the gateway serves them to
 * browsers that accept them), prints each chunk's gzip size and the initial JavaScript (the
 * entry and what it imports statically, which the page loads before it can render), and
 * fails the build when the initial JavaScript is over budget.
 */
export function compressAndReport(options: ReportOptions): Plugin {
  return {
    name: 'svc-compress-and-report',
    apply: 'build',
    async writeBundle(output, bundle) {
      const dir = output.dir ?? '.';
      const sizes = new Map<string, number>();
      for (const fileName of Object.keys(bundle)) {
        if (!COMPRESSIBLE.test(fileName)) continue;
        const content = await readFile(join(dir, fileName));
        const gzip = gzipSync(content, { level: 9 });
        await writeFile(join(dir, `${fileName}.gz`), gzip);
        await writeFile(join(dir, `${fileName}.br`), brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        sizes.set(fileName, gzip.length);
      }

      const initial = new Set<string>();
      const visit = (name: string): void => {
        const chunk = bundle[name];
        if (initial.has(name) || chunk?.type !== 'chunk') return;
        initial.add(name);
        chunk.imports.forEach(visit);
      };
      for (const [name, chunk] of Object.entries(bundle)) if (chunk.type === 'chunk' && chunk.isEntry) visit(name);

      const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
      const rows = [...sizes].filter(([name]) => name.endsWith('.js') || name.endsWith('.css')).sort((a, b) => b[1] - a[1]);
      console.log('\nweb client, gzip sizes (* = loaded on start):');
      for (const [name, size] of rows) console.log(`  ${initial.has(name) ? '*' : ' '} ${kib(size).padStart(10)}  ${name}`);
      const initialBytes = [...initial].reduce((sum, name) => sum + (sizes.get(name) ?? 0), 0);
      console.log(`  initial JavaScript: ${kib(initialBytes)} gzip (budget ${kib(options.initialBudgetBytes)})\n`);
      if (initialBytes > options.initialBudgetBytes) {
        this.error(`initial JavaScript is ${kib(initialBytes)} gzip, over the ${kib(options.initialBudgetBytes)} budget: load more of it lazily`);
      }
    },
  };
}
