# shellcheck shell=bash
# Podman as the project's scripts run it, and the local base image they build on.
# Sourced after lib/common.sh.

export CONTAINERS_CONF=${CONTAINERS_CONF:-$SVC_REPO_ROOT/infra/podman/containers.conf}

# The image `npm run image` builds, and that deploy/compose.yaml and deploy/k8s name.
SVC_IMAGE=${SVC_IMAGE:-localhost/svc:$(node -p 'require(process.argv[1]).version' "$SVC_REPO_ROOT/package.json")}

# A Debian trixie base made from Debian's packages (debootstrap --variant=minbase), for machines
# that reach no container registry, without manuals, documentation or translations (about 45 MB
# that deleting in a later layer would not take out of the image). Kept in podman's storage, and
# its root file system as a tarball in the cache, so it is made once per machine.
LOCAL_BASE_IMAGE=localhost/svc-base:trixie-slim
LOCAL_BASE_SUITE=trixie
LOCAL_BASE_MIRROR=${SVC_DEBIAN_MIRROR:-http://deb.debian.org/debian}

require_podman() {
  command -v podman >/dev/null || die "podman is not installed (bash infra/install.sh --containers installs it)"
}

ensure_local_base_image() {
  podman image exists "$LOCAL_BASE_IMAGE" && return 0
  local tarball="$SVC_CACHE_DIR/images/debian-$LOCAL_BASE_SUITE-minbase-slim.tar"
  if [[ ! -s $tarball ]]; then
    command -v debootstrap >/dev/null || die "debootstrap is not installed (bash infra/install.sh --containers installs it)"
    local sudo=() rootfs
    is_root || sudo=(sudo)
    mkdir -p "$(dirname "$tarball")"
    rootfs=$(mktemp -d "$SVC_CACHE_DIR/images/rootfs.XXXXXX")
    log "making the base image from Debian's packages (debootstrap $LOCAL_BASE_SUITE, once per machine)"
    "${sudo[@]}" debootstrap --variant=minbase "$LOCAL_BASE_SUITE" "$rootfs" "$LOCAL_BASE_MIRROR" >"$rootfs.log" 2>&1 ||
      fail_with_log "debootstrap failed" "$rootfs.log"
    # What the images' apt-get installs from: the release, its updates and its security fixes
    # (debootstrap leaves only the release).
    printf 'deb %s %s main\n' "$LOCAL_BASE_MIRROR" "$LOCAL_BASE_SUITE" "$LOCAL_BASE_MIRROR" "$LOCAL_BASE_SUITE-updates" \
      "${LOCAL_BASE_MIRROR%/debian}/debian-security" "$LOCAL_BASE_SUITE-security" | "${sudo[@]}" tee "$rootfs/etc/apt/sources.list" >/dev/null
    "${sudo[@]}" rm -rf "$rootfs/var/cache/apt/archives/"*.deb "$rootfs/var/lib/apt/lists/"*
    # What deploy/image/dpkg-slim.cfg keeps dpkg from installing from now on, gone from what
    # debootstrap installed too.
    "${sudo[@]}" install -m 0644 "$SVC_REPO_ROOT/deploy/image/dpkg-slim.cfg" "$rootfs/etc/dpkg/dpkg.cfg.d/svc-slim"
    "${sudo[@]}" find "$rootfs/usr/share/doc" -mindepth 1 ! -type d ! -name copyright -delete
    "${sudo[@]}" find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
    "${sudo[@]}" rm -rf "$rootfs/usr/share/man/"* "$rootfs/usr/share/info/"* "$rootfs/usr/share/locale/"* "$rootfs/usr/share/lintian/"*
    "${sudo[@]}" tar -C "$rootfs" -cf "$tarball.tmp" .
    mv "$tarball.tmp" "$tarball"
    "${sudo[@]}" rm -rf "$rootfs" "$rootfs.log"
  fi
  log "importing $tarball as $LOCAL_BASE_IMAGE"
  podman import --quiet --change 'CMD ["/bin/bash"]' "$tarball" "$LOCAL_BASE_IMAGE" >/dev/null
}
