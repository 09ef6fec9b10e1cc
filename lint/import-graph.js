// The repository's import graph, read once per lint run: which file imports which (relative
// imports only, `import type` included, since a type circle is still a circle a reader has to
// untangle), and the circles in it (strongly connected components). TypeScript's own scanner
// finds the imports, so an import written in a comment or a string is not one.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SKIP = new Set(['node_modules', 'dist', '.git', '.qt-stack', '.svc', 'test-artifacts', 'gen']);

/** `from` and `to` are paths from the root; `to` is the file a relative specifier names, or null. */
export function resolveSpecifier(root, fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  const stem = base.replace(/\.(js|jsx|mjs)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, base, `${base}/index.ts`]) {
    if (fs.existsSync(path.join(root, candidate)) && fs.statSync(path.join(root, candidate)).isFile()) return candidate;
  }
  return null;
}

function sourceFiles(root) {
  const out = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue;
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(rel);
    }
  };
  walk('');
  return out;
}

/** Tarjan's algorithm: file -> id of its component, for the components of more than one file. */
function circles(graph) {
  let next = 0;
  const index = new Map(), low = new Map(), onStack = new Set(), stack = [], component = new Map();
  const visit = (start) => {
    // Iterative, so a deep chain of imports cannot overflow the call stack.
    const work = [[start, 0]];
    index.set(start, next); low.set(start, next); next++; stack.push(start); onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, i] = frame;
      const edges = graph.get(node) ?? [];
      if (i < edges.length) {
        frame[1]++;
        const to = edges[i];
        if (!index.has(to)) {
          index.set(to, next); low.set(to, next); next++; stack.push(to); onStack.add(to);
          work.push([to, 0]);
        } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
        continue;
      }
      work.pop();
      if (work.length > 0) { const parent = work[work.length - 1][0]; low.set(parent, Math.min(low.get(parent), low.get(node))); }
      if (low.get(node) === index.get(node)) {
        const members = [];
        let member;
        do { member = stack.pop(); onStack.delete(member); members.push(member); } while (member !== node);
        if (members.length > 1 || (graph.get(node) ?? []).includes(node)) for (const m of members) component.set(m, node);
      }
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return component;
}

const cache = new Map();

/** The graph and its circles for `root`, read at the first call of a lint run. */
export function importGraph(root) {
  let found = cache.get(root);
  if (!found) {
    const graph = new Map();
    for (const file of sourceFiles(root)) {
      const { importedFiles } = ts.preProcessFile(fs.readFileSync(path.join(root, file), 'utf8'), true, true);
      graph.set(file, [...new Set(importedFiles.map((i) => resolveSpecifier(root, file, i.fileName)).filter((t) => t !== null))]);
    }
    found = { graph, component: circles(graph) };
    cache.set(root, found);
  }
  return found;
}

/** One way round the circle: `from`, `to`, ..., back to `from` (both in one circle). */
export function circlePath(found, from, to) {
  const target = found.component.get(from);
  const previous = new Map([[to, null]]);
  const queue = [to];
  while (queue.length > 0 && !previous.has(from)) {
    const node = queue.shift();
    for (const next of found.graph.get(node) ?? []) {
      if (found.component.get(next) === target && !previous.has(next)) { previous.set(next, node); queue.push(next); }
    }
  }
  const back = [];
  for (let node = from; node !== null && node !== undefined; node = previous.get(node)) back.push(node);
  return [from, ...back.reverse()];
}
