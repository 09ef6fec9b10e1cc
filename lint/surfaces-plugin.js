// Lint rules for the shape of the tree (docs/2026-11-29-public-surfaces.md), written here
// because the import plugins are not dependencies of the project and three small rules over
// one import graph do not need them:
//   public-entry    code outside an area imports only its entry, `<area>/index.ts`;
//   allowed-areas   a folder may import only the top-level folders it names (the web client: its
//                   own files and contracts/);
//   no-import-cycle no file reaches itself through imports (types included).
import path from 'node:path';
import { circlePath, importGraph, resolveSpecifier } from './import-graph.js';

const ROOT = path.dirname(import.meta.dirname);

/** The path from the root of the linted file, with forward slashes. */
const fileOf = (context) => path.relative(ROOT, context.filename).split(path.sep).join('/');

/** Calls `check(node, specifier)` for every static import, re-export and literal dynamic import. */
function onImports(check) {
  const withSource = (node) => {
    if (node.source && typeof node.source.value === 'string') check(node.source, node.source.value);
  };
  return {
    ImportDeclaration: withSource,
    ExportNamedDeclaration: withSource,
    ExportAllDeclaration: withSource,
    ImportExpression: withSource,
  };
}

const publicEntry = {
  meta: {
    type: 'problem',
    docs: { description: 'Code outside an area imports only its public entry, <area>/index.ts' },
    schema: [
      {
        type: 'object',
        properties: { open: { type: 'array', items: { type: 'string' } }, entries: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
    ],
    messages: {
      bypass: "'{{target}}' is inside {{area}}/: import {{area}}/index.ts (add the name to it if it is part of what {{area}}/ offers)",
    },
  },
  create(context) {
    const open = new Set(context.options[0]?.open ?? []);
    const entries = new Set(context.options[0]?.entries ?? []);
    const file = fileOf(context);
    const from = file.split('/')[0];
    return onImports((node, specifier) => {
      const target = resolveSpecifier(ROOT, file, specifier);
      if (target === null) return;
      const area = target.split('/')[0];
      if (area === from || open.has(area) || !target.includes('/') || target === `${area}/index.ts` || entries.has(target)) return;
      context.report({ node, messageId: 'bypass', data: { target, area } });
    });
  },
};

const allowedAreas = {
  meta: {
    type: 'problem',
    docs: { description: 'A folder imports only the top-level folders it is allowed' },
    schema: [{ type: 'object', properties: { allow: { type: 'array', items: { type: 'string' } } }, required: ['allow'], additionalProperties: false }],
    messages: { outside: "'{{target}}' is outside what this folder may import ({{allowed}})" },
  },
  create(context) {
    const allow = context.options[0].allow;
    const file = fileOf(context);
    return onImports((node, specifier) => {
      if (!specifier.startsWith('.')) return;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      if (allow.some((folder) => target.startsWith(`${folder}/`))) return;
      context.report({ node, messageId: 'outside', data: { target, allowed: allow.map((f) => `${f}/`).join(', ') } });
    });
  },
};

const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No file reaches itself through imports' },
    schema: [],
    messages: { circle: 'import circle: {{trail}}' },
  },
  create(context) {
    const file = fileOf(context);
    const found = importGraph(ROOT);
    const mine = found.component.get(file);
    if (mine === undefined) return {};
    return onImports((node, specifier) => {
      const target = resolveSpecifier(ROOT, file, specifier);
      if (target === null || found.component.get(target) !== mine) return;
      context.report({ node, messageId: 'circle', data: { trail: circlePath(found, file, target).join(' -> ') } });
    });
  },
};

export default {
  meta: { name: 'svc-surfaces' },
  rules: { 'public-entry': publicEntry, 'allowed-areas': allowedAreas, 'no-import-cycle': noImportCycle },
};
