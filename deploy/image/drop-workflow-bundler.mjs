// Replaces, in the image's production node_modules, the tools @temporalio/worker bundles workflow
// code with (webpack, swc, memfs, …) by empty stand-ins, then deletes every package nothing needs
// any more. The image's worker reads the bundle made at the image's build
// (workflows/prebuilt-bundle.ts) and never bundles, but @temporalio/worker requires webpack and
// memfs when it is loaded, so they cannot simply be deleted: the stand-ins load, and throw a
// sentence only if something asks them to bundle. About 60 MB (docs/2026-11-26-containers.md).
//
//   node drop-workflow-bundler.mjs [node_modules directory]
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? 'node_modules');
const app = dirname(root);
const require = createRequire(import.meta.url);
const BUNDLER = ['webpack', 'memfs', 'unionfs', 'swc-loader', 'source-map-loader', '@swc/core'];
/** The only packages allowed to depend on the bundler, besides the bundler's own parts. */
const BUNDLER_USERS = new Set(['@temporalio/worker', ...BUNDLER]);

function readManifest(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

/** Where Node finds `name` from a package at `from`: its own node_modules, then each one above it. */
function locate(name, from) {
  for (let at = from; ; at = dirname(at)) {
    if (basename(at) !== 'node_modules' && existsSync(join(at, 'node_modules', name, 'package.json'))) return join(at, 'node_modules', name);
    if (at === app || at === dirname(at)) return null;
  }
}

/**
 * Every package directory the application's production dependencies reach, with who needs it,
 * not looking inside the bundler: what only the bundler needs is left out.
 */
function reachable() {
  const manifest = readManifest(app);
  const needed = new Map(); // package dir -> names of the packages that depend on it
  const queue = [];
  const visit = (name, fromDir, fromName) => {
    const dir = locate(name, fromDir);
    if (!dir) return; // an optional dependency for another platform, or an absent peer
    if (!needed.has(dir)) {
      needed.set(dir, new Set());
      queue.push(dir);
    }
    needed.get(dir).add(fromName);
  };
  for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) visit(name, app, '(svc)');
  while (queue.length > 0) {
    const dir = queue.shift();
    const manifest = readManifest(dir);
    if (BUNDLER.includes(manifest.name)) continue;
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies, ...manifest.peerDependencies })) visit(name, dir, manifest.name);
  }
  return needed;
}

/**
 * An empty package under the real one's name and version that has the real one's exports, each
 * throwing a sentence when read: @temporalio/worker reads them only to bundle.
 */
function standIn(dir) {
  const { name, version } = readManifest(dir);
  const exported = Object.keys(require(dir));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version, main: 'index.js', description: "empty stand-in in svc's image" }, null, 2) + '\n');
  writeFileSync(
    join(dir, 'index.js'),
    `'use strict';
// svc's image never bundles workflow code (deploy/image/drop-workflow-bundler.mjs).
for (const name of ${JSON.stringify(exported)}) {
  Object.defineProperty(exports, name, {
    enumerable: true,
    get() {
      throw new Error('this image has no workflow bundler (${name} is a stand-in): its worker reads the bundle made at the image build, dist/workflows/review-workflows.bundle.js');
    },
  });
}
`,
  );
}

/** Package directories under a node_modules directory (scoped ones included), nested ones too. */
function installed(modules, into = []) {
  if (!existsSync(modules)) return into;
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith('.')) continue;
    const path = join(modules, entry);
    if (entry.startsWith('@')) {
      for (const scoped of readdirSync(path)) {
        into.push(join(path, scoped));
        installed(join(path, scoped, 'node_modules'), into);
      }
    } else {
      into.push(path);
      installed(join(path, 'node_modules'), into);
    }
  }
  return into;
}

const needed = reachable();
for (const [dir, dependents] of needed) {
  const { name } = readManifest(dir);
  if (!BUNDLER.includes(name)) continue;
  const others = [...dependents].filter((dependent) => !BUNDLER_USERS.has(dependent));
  if (others.length > 0) {
    console.error(`drop-workflow-bundler: ${name} is needed by ${others.join(', ')} too; keeping the bundler`);
    process.exit(1);
  }
  standIn(dir);
}
let removed = 0;
for (const dir of installed(root)) {
  if (needed.has(dir) || !existsSync(dir)) continue;
  rmSync(dir, { recursive: true, force: true });
  removed++;
}
// Empty scopes, and the command links of deleted packages.
for (const entry of readdirSync(root)) {
  const path = join(root, entry);
  if (entry.startsWith('@') && readdirSync(path).length === 0) rmSync(path, { recursive: true });
}
const bin = join(root, '.bin');
if (existsSync(bin)) {
  for (const link of readdirSync(bin)) {
    const path = join(bin, link);
    if (lstatSync(path).isSymbolicLink() && !existsSync(resolve(bin, readlinkSync(path)))) rmSync(path);
  }
}
console.error(`drop-workflow-bundler: ${BUNDLER.join(', ')} stood in; ${removed} packages nothing needs any more deleted`);
