# shellcheck shell=bash
# Build stamps: a step that is slow but determined by its inputs records a digest of those inputs
# when it succeeds, and is skipped while the digest is the same. Stamps live in git-ignored places
# (dist/, node_modules/), so a fresh clone always builds. Sourced after lib/common.sh.

# files_digest <file>...: one digest of the names and contents of the files, in any order given;
# a missing file counts by its name, so deleting an input changes the digest too.
files_digest() {
  local file existing=() missing=()
  while IFS= read -r file; do
    if [[ -f $file ]]; then existing+=("$file"); else missing+=("$file"); fi
  done < <(printf '%s\n' "$@" | LC_ALL=C sort -u)
  {
    ((${#existing[@]} == 0)) || sha256sum -- "${existing[@]}"
    ((${#missing[@]} == 0)) || printf 'missing %s\n' "${missing[@]}"
  } | sha256sum | cut -d' ' -f1
}

# stamp_matches <stamp file> <digest>
stamp_matches() {
  [[ -f $1 && $(<"$1") == "$2" ]]
}

# write_stamp <stamp file> <digest>: written whole or not at all, so an interrupted step never
# leaves a stamp that claims it finished.
write_stamp() {
  mkdir -p "$(dirname "$1")"
  printf '%s\n' "$2" >"$1.tmp"
  mv "$1.tmp" "$1"
}

# tsbuildinfo_sources <tsbuildinfo>: the repository's own files (not node_modules) that the last
# compile of that project read, as TypeScript recorded them, relative to the repository root.
tsbuildinfo_sources() {
  [[ -f $1 ]] || return 0
  node -e '
    const { readFileSync } = require("node:fs");
    const { dirname, relative, resolve } = require("node:path");
    const [file, root] = process.argv.slice(1);
    let names = [];
    try { names = JSON.parse(readFileSync(file, "utf8")).fileNames ?? []; } catch { process.exit(0); }
    for (const name of names) {
      const path = relative(root, resolve(dirname(file), name));
      if (!path.startsWith("..") && !path.split("/").includes("node_modules")) console.log(path);
    }
  ' "$1" "$SVC_REPO_ROOT"
}
