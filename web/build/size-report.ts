import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

export interface ReportOptions {
  initialBudgetBytes: number;
}

/**
 * After a build: prints each chunk's gzip size and the initial JavaScript (the entry and what
 * it imports statically, which the page loads before it can render), and fails the build when
 * the initial JavaScript is over budget. A rebuild in watch mode prints one line instead of the
 * table. The `.br`/`.gz` files the gateway serves are written after the build, by
 * compress-assets.mjs: at brotli's best quality they took most of the build's time.
 */
export function sizeReport(options: ReportOptions): Plugin {
  return {
    name: 'svc-size-report',
    apply: 'build',
    writeBundle(_output, bundle) {
      const sizes = new Map<string, number>();
      for (const [fileName, file] of Object.entries(bundle)) {
        if (!fileName.endsWith('.js') && !fileName.endsWith('.css')) continue;
        sizes.set(fileName, gzipSync(file.type === 'chunk' ? file.code : file.source, { level: 9 }).length);
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
      const initialBytes = [...initial].reduce((sum, name) => sum + (sizes.get(name) ?? 0), 0);
      const initialLine = `initial JavaScript: ${kib(initialBytes)} gzip (budget ${kib(options.initialBudgetBytes)})`;
      if (this.meta.watchMode) {
        // A rebuild under `npm run dev`, after the service printed its URLs: one line, not the table.
        console.log(`[web] rebuilt the web client (${initialLine}): reload the page`);
      } else {
        const rows = [...sizes].sort((a, b) => b[1] - a[1]);
        console.log('\nweb client, gzip sizes (* = loaded on start):');
        for (const [name, size] of rows) console.log(`  ${initial.has(name) ? '*' : ' '} ${kib(size).padStart(10)}  ${name}`);
        console.log(`  ${initialLine}\n`);
      }
      if (initialBytes > options.initialBudgetBytes) {
        this.error(`initial JavaScript is ${kib(initialBytes)} gzip, over the ${kib(options.initialBudgetBytes)} budget: load more of it lazily`);
      }
    },
  };
}
