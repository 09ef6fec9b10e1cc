#!/usr/bin/env bash
# Writes the secret files deploy/compose.yaml mounts into deploy/secrets/ (or the folder given),
# once: files that exist are kept, because replacing the OPAQUE setup invalidates every password
# and replacing the credential key makes stored provider credentials unreadable.
#   bash deploy/make-secrets.sh [folder]      (SVC_IMAGE: the svc image to generate them with)
# The folder is private to its owner (0700); the files in it are readable (0644) because the
# containers read them as their own non-root users, which own nothing on the host.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
dir=${1:-$here/secrets}
image=${SVC_IMAGE:-localhost/svc:0.1.0}
engine=${CONTAINER_ENGINE:-$(command -v podman || command -v docker || true)}
[[ -n $engine ]] || { echo "make-secrets.sh: neither podman nor docker is installed" >&2; exit 1; }

mkdir -p "$dir"
chmod 0700 "$dir"
umask 022

write() { # write <name> <value>: only when missing
  [[ -s $dir/$1 ]] && return 0
  printf '%s' "$2" >"$dir/$1.tmp" && chmod 0644 "$dir/$1.tmp" && mv "$dir/$1.tmp" "$dir/$1"
  echo "wrote $dir/$1" >&2
}

# svc's own secrets, from `svc secrets generate` (SVC_JWT_SECRET=... -> jwt_secret); the
# management token is for a tcp:// management endpoint, which compose.yaml does not use.
while IFS='=' read -r name value; do
  case $name in '' | '#'* | SVC_MANAGEMENT_TOKEN) continue ;; esac
  file=${name#SVC_}
  file=${file#SECURITY_}
  write "${file,,}" "$value"
done < <("$engine" run --rm "$image" secrets generate --output env)

if [[ ! -s $dir/postgres_password ]]; then
  password=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
  write postgres_password "$password"
  rm -f "$dir/database_url"
fi
write database_url "postgres://svc:$(cat "$dir/postgres_password")@postgres:5432/svc"
# The SFU's API secret (LiveKit wants 32 characters or more), shared by LiveKit and svc.
write sfu_api_secret "$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')"
