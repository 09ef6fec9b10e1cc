/**
 * Builds the previous release into its cache folder before the tests run (`npm test` calls it
 * after compiling), so the rolling-upgrade test finds it ready: the first build (extract,
 * node_modules, tsc) takes minutes, longer than ava's inactivity timeout. Prints where it is.
 */
import { pinnedCommit, previousRelease } from './previous-release.js';

const release = await previousRelease(await pinnedCommit(), (line) => console.log(`previous release: ${line}`));
console.log(
  release.buildMs > 0
    ? `previous release ${release.sha.slice(0, 12)} built in ${(release.buildMs / 1000).toFixed(1)} s: ${release.root}`
    : `previous release ${release.sha.slice(0, 12)} cached: ${release.root}`,
);
