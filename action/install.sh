#!/usr/bin/env bash
# Installs recount for the Action: the release archive for this runner's OS and
# architecture, checked against the release's SHA256SUMS, into $1/bin; or, when
# the Action is used at a commit that has no release, a build from the Action's
# own checkout with the lock file (RECOUNT_BUILD, default `cargo install
# --locked`). A checksum that does not match stops the job: a tampered or
# truncated archive is never installed, and never replaced by a build.
#
# Environment: RECOUNT_RELEASE_URL, the release's folder (an https:// or file://
# address holding recount-drift-TARGET.tar.gz or .zip and SHA256SUMS); empty,
# build. recount-drift is the distribution's name; the command is `recount`.
#
# The address comes from the Action's `release-url` input: it reaches curl only
# after `--`, so a value such as `-K/path` or `--config=…` is an address curl
# refuses, never an option it obeys, and one that is neither https:// nor
# file:// is refused here with a plain message. No number from the
# environment reaches shell arithmetic.
set -euo pipefail
root=${1:?usage: install.sh ROOT}
mkdir -p -- "$root/bin"

target_of() {
  local os arch
  os=$(uname -s)
  arch=$(uname -m)
  case "$arch" in
    x86_64 | amd64) arch=x86_64 ;;
    arm64 | aarch64) arch=aarch64 ;;
    *) echo "unsupported" && return ;;
  esac
  case "$os" in
    Linux) echo "$arch-unknown-linux-musl" ;;
    Darwin) echo "$arch-apple-darwin" ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT) echo "x86_64-pc-windows-msvc" ;;
    *) echo "unsupported" ;;
  esac
}

build() {
  echo "recount: building from the Action's checkout ($1)" >&2
  # zlib-ng, as the release archives have it, where the runner has cmake to
  # build it (GitHub's hosted runners do); the system's zlib otherwise.
  local features=()
  if command -v cmake >/dev/null 2>&1; then features=(--features zlib-ng); fi
  ${RECOUNT_BUILD:-cargo install --locked --path "${GITHUB_ACTION_PATH:-.}" --root "$root" ${features[@]+"${features[@]}"}}
}

target=$(target_of)
url=${RECOUNT_RELEASE_URL:-}
case "$url" in
  "" | https://* | file://*) ;;
  *)
    echo "recount: the release address must start with https:// or file://; refusing it" >&2
    exit 1
    ;;
esac
if [ -z "$url" ] || [ "$target" = unsupported ]; then
  build "no release for ${target}"
  exit 0
fi
case "$target" in *windows*) archive="recount-drift-$target.zip" ;; *) archive="recount-drift-$target.tar.gz" ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! curl -fsSL --proto '=https,file' -o "$work/SHA256SUMS" -- "$url/SHA256SUMS" \
  || ! curl -fsSL --proto '=https,file' -o "$work/$archive" -- "$url/$archive"; then
  build "no release archive at $url"
  exit 0
fi
want=$(awk -v name="$archive" '$2 == name || $2 == "*" name { print $1 }' "$work/SHA256SUMS")
if [ -z "$want" ]; then
  echo "recount: SHA256SUMS lists no $archive; refusing to install it" >&2
  exit 1
fi
have=$( (sha256sum "$work/$archive" 2>/dev/null || shasum -a 256 "$work/$archive") | awk '{ print $1 }')
if [ "$want" != "$have" ]; then
  echo "recount: $archive does not match SHA256SUMS (want $want, have $have); refusing to install it" >&2
  exit 1
fi
case "$archive" in
  *.zip) (cd "$work" && unzip -q "$archive") ;;
  *) tar xzf "$work/$archive" -C "$work" ;;
esac
ext=""
case "$target" in *windows*) ext=".exe" ;; esac
install -m 0755 "$work/recount-drift-$target/recount$ext" "$root/bin/recount$ext"
echo "recount: installed $("$root/bin/recount$ext" --version) from $archive" >&2
